package model

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Sentinel errors that callers branch on; returned errors wrap them.
var (
	// ErrEmptyAnswer means the API answered without any text.
	ErrEmptyAnswer = errors.New("model: the answer has no text")
	// ErrTooLarge means a response body exceeded MaxResponseBytes.
	ErrTooLarge = errors.New("model: response larger than the 4 MB cap")
	// ErrBadResponse means the response was not the JSON the API documents:
	// malformed, truncated, or of another content type.
	ErrBadResponse = errors.New("model: response is not the expected JSON")
)

// APIError is an error status from the API.
type APIError struct {
	Provider   string // ProviderAnthropic or ProviderOpenAI
	StatusCode int
	// Type is the API's error type, such as "rate_limit_error", when the body
	// named one.
	Type string
	// Message is the API's own text, scrubbed of the key, control characters
	// and length. It is left out of Error() because a server may echo request
	// content in it; show it to the person deliberately, if at all.
	Message string
	// Retryable reports whether the same request may succeed later: an
	// overloaded or failing server, or a rate limit that says when to retry.
	Retryable bool
	// RetryAfter is the server's Retry-After, zero when not given.
	RetryAfter time.Duration
}

// Error says what failed and what to do next.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model: %s: HTTP %d", e.Provider, e.StatusCode)
	if e.Type != "" {
		b.WriteString(" " + e.Type)
	}
	b.WriteString(": ")
	switch s := e.StatusCode; {
	case s >= 300 && s < 400:
		b.WriteString("unexpected redirect; check Config.BaseURL")
	case s == http.StatusUnauthorized:
		b.WriteString("authentication failed; check Config.APIKey")
	case s == http.StatusForbidden:
		b.WriteString("permission denied; check that the key may use Config.Model")
	case s == http.StatusNotFound:
		b.WriteString("not found; check Config.BaseURL and Config.Model")
	case s == http.StatusRequestEntityTooLarge:
		b.WriteString("request too large; send fewer or smaller images")
	case s == http.StatusTooManyRequests:
		b.WriteString("rate limited")
	case s >= 500:
		b.WriteString("server error")
	case s >= 400:
		b.WriteString("request rejected")
	default:
		b.WriteString("unexpected status")
	}
	switch {
	case e.Retryable && e.RetryAfter > 0:
		fmt.Fprintf(&b, "; a retry may help after %v", e.RetryAfter)
	case e.Retryable:
		b.WriteString("; a retry may help")
	default:
		b.WriteString("; a retry will not help")
	}
	return b.String()
}

// newAPIError builds an APIError from a response; typ and msg come from the
// body when it had an error object.
func newAPIError(provider string, resp *http.Response, typ, msg, key string) *APIError {
	e := &APIError{
		Provider:   provider,
		StatusCode: resp.StatusCode,
		Type:       cleanType(scrub(typ, key)),
		Message:    scrub(msg, key),
		RetryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now()),
	}
	switch s := resp.StatusCode; {
	case s == http.StatusTooManyRequests:
		// A 429 without Retry-After may be a spend cap that waiting won't lift.
		e.Retryable = e.RetryAfter > 0
	case s == http.StatusRequestTimeout, s >= 500:
		e.Retryable = true
	}
	return e
}

// retryAfter parses Retry-After as seconds or an HTTP date; zero if absent or
// unusable.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
		if n <= 0 || n > 86400 {
			return 0
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now).Round(time.Second)
	}
	return 0
}

// scrub removes the key and control characters from text the API sent and
// bounds its length.
func scrub(s, key string) string {
	if key != "" {
		s = strings.ReplaceAll(s, key, "[redacted]")
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return ' '
		}
		return r
	}, s)
	if len(s) > 300 {
		s = strings.ToValidUTF8(s[:300], "") + "..."
	}
	return strings.TrimSpace(s)
}

// cleanType keeps an error type only when it looks like one, so Error() can
// never carry arbitrary server text.
func cleanType(s string) string {
	if len(s) > 64 {
		return ""
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return ""
		}
	}
	return s
}
