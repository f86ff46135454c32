package consent

import "errors"

// ErrConsentRequired is what every refused token is: the wire's
// CONSENT_REQUIRED. Test for it with errors.Is.
var ErrConsentRequired = errors.New("consent required")

// Reason says, in one content-free word fit for the audit log, why a token
// was refused.
type Reason string

// The reasons a token is refused.
const (
	ReasonMissing      Reason = "missing"
	ReasonMalformed    Reason = "malformed"
	ReasonForged       Reason = "forged"
	ReasonOtherMachine Reason = "other_machine"
	ReasonExpired      Reason = "expired"
	ReasonReused       Reason = "reused"
	ReasonMismatch     Reason = "mismatch"
)

// RefusedError is a refused consent token. Its message tells the person what
// to do next and never contains the token.
type RefusedError struct {
	// Reason is why, in a word.
	Reason Reason
	msg    string
}

func refuse(r Reason, msg string) *RefusedError { return &RefusedError{Reason: r, msg: msg} }

// Error implements error.
func (e *RefusedError) Error() string { return ErrConsentRequired.Error() + ": " + e.msg }

// Is makes errors.Is(err, ErrConsentRequired) true.
func (e *RefusedError) Is(target error) bool { return target == ErrConsentRequired }
