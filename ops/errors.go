package ops

//go:generate go run ../internal/codegen

import (
	"encoding/json"
	"fmt"
)

// The error codes are generated from errors.json, reprise's one registry
// of them, into codes.go (and docs/errors.md): add a code there, never a
// constant by hand.

// CodeInfo is one code of the registry.
type CodeInfo struct {
	Code string
	// Group is the registry's group: wire, local, computer, elements,
	// selector, script.
	Group string
	// Meaning says what the code means and what to do next.
	Meaning string
	// Retry says the same request, sent again unchanged, may succeed once
	// time has passed.
	Retry bool
}

var byCode = func() map[string]CodeInfo {
	m := make(map[string]CodeInfo, len(Codes))
	for _, c := range Codes {
		m[c.Code] = c
	}
	return m
}()

// Lookup returns code's entry in the registry; ok is false for a code it
// does not list.
func Lookup(code string) (info CodeInfo, ok bool) {
	info, ok = byCode[code]
	return info, ok
}

// Error is reprise's one error on the wire: an ERROR reply's payload, the
// "error" of a local service's refusal (ErrorReply), a COMPUTER_RUN_RESULT's
// error, and the error a Service returns to choose its code. Its message
// says what to do next; Detail, when set, is what a program may branch on
// beyond the code (the broker's COMPUTER_ code under a script's failure).
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Detail  string `json:"detail,omitempty"`
}

// Error reads "CODE: message", with the detail after it in parentheses.
func (e *Error) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("%s: %s (%s)", e.Code, e.Message, e.Detail)
	}
	return e.Code + ": " + e.Message
}

// Retryable says the registry marks e's code as one a retry may clear.
func (e *Error) Retryable() bool {
	info, ok := Lookup(e.Code)
	return ok && info.Retry
}

// UnmarshalJSON reads an error in its current shape or in the one a
// COMPUTER_RUN_RESULT had before the registry, {code, grant_code,
// message}: an older daemon still sends it, and a reply it kept in
// OPS_REPLIES may be served after an upgrade. grant_code becomes Detail.
func (e *Error) UnmarshalJSON(b []byte) error {
	var v struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		Detail    string `json:"detail"`
		GrantCode string `json:"grant_code"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Detail == "" {
		v.Detail = v.GrantCode
	}
	*e = Error{Code: v.Code, Message: v.Message, Detail: v.Detail}
	return nil
}

// Errorf returns an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
