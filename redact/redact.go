// Package redact applies the hygiene of SPEC section 8 to captured steps:
// password fields carry no value, and values shaped like well-known secrets
// (card numbers, US SSNs, IBANs, API keys and tokens, JWTs, PEM blocks,
// high-entropy strings, one-time codes in fields labelled as such) are
// dropped before a step is stored or streamed.
//
// This is hygiene, not a guarantee: the detectors recognise shapes, and a
// secret of an unknown shape, split across fields, or typed where nothing
// hints at it can pass through. Nothing in this package logs, and no result
// it returns carries a value; kinds name detectors, never what they matched.
package redact

import (
	"slices"

	"github.com/reprise-dev/reprise/events"
)

// Detector kinds, as Step and Scan report them. They are safe to audit: they
// say which detector fired, not what it matched.
const (
	KindPassword    = "password"           // a password field, or a field labelled as a password, PIN or credential
	KindOneTimeCode = "one_time_code"      // a code in a field labelled as a one-time code
	KindCardCode    = "card_security_code" // a CVV/CVC in a field labelled as such
	KindCard        = "card_number"        // a Luhn-valid number with a known issuer prefix
	KindSSN         = "us_ssn"             // a US social security number
	KindIBAN        = "iban"               // a mod-97-valid international bank account number
	KindAPIKey      = "api_key"            // an API key or token of a well-known shape
	KindJWT         = "jwt"                // a JSON web token
	KindPEM         = "pem_block"          // a PEM block: a private key, a certificate
	KindHighEntropy = "high_entropy"       // a long random-looking token
)

// Mask replaces a secret found inside free text (a narration, a window
// title); Step leaves the rest of the text as it was.
const Mask = "[redacted]"

// urlMask replaces a secret inside a URL; unlike Mask it needs no escaping.
const urlMask = "redacted"

// kindSet is a set of detector kinds, one bit each, so the hot path does not
// allocate until a detector fires.
type kindSet uint16

const (
	kPassword kindSet = 1 << iota
	kOneTimeCode
	kCardCode
	kCard
	kSSN
	kIBAN
	kAPIKey
	kJWT
	kPEM
	kHighEntropy
)

var kindNames = [...]string{
	KindPassword, KindOneTimeCode, KindCardCode, KindCard, KindSSN,
	KindIBAN, KindAPIKey, KindJWT, KindPEM, KindHighEntropy,
}

// names lists the kinds in k in a fixed order, or nil when k is empty.
func (k kindSet) names() []string {
	if k == 0 {
		return nil
	}
	var out []string
	for i, name := range kindNames {
		if k&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}

// Hygiene applies the one rule that needs no detector, and reports whether
// it changed s: a value of type secret keeps no raw text. The recorder runs
// it where steps leave the capture sources, before anything is written, even
// sealed; Step applies it with the rest.
func Hygiene(s *events.Step) bool {
	if s.Value == nil || s.Value.Type != events.ValueSecret || s.Value.Raw == "" {
		return false
	}
	v := *s.Value
	v.Raw = ""
	s.Value, s.Redacted = &v, true
	return true
}

// Step applies hygiene to s in place and reports whether anything changed
// and which detector kinds fired.
//
// A value of type secret keeps no raw text. A value in a field labelled as a
// password, PIN or credential, or a code-shaped value in a field labelled as a
// one-time code or card security code, is blanked. Any other value is scanned
// by the detectors, and a hit blanks it whole: raw becomes "" and its type
// secret. Secrets found in the enrichment URL (query and fragment parameter
// values, userinfo, path segments), the narration and the active window title
// are replaced where they stand, leaving the rest as it was. Whenever
// anything is removed, s.Redacted is set.
//
// Step replaces s.Value, s.Enrichment and s.Narration with fresh copies
// rather than writing through them, so values shared with another step are
// left alone. Applying Step twice gives the same step as applying it once.
func Step(s *events.Step) (changed bool, kinds []string) {
	if s == nil {
		return false, nil
	}
	var k kindSet
	if v := s.Value; v != nil {
		if fk := valueKinds(v, s.Enrichment); fk != 0 {
			k |= fk
			if v.Raw != "" || v.Type != events.ValueSecret {
				nv := *v
				nv.Raw, nv.Type = "", events.ValueSecret
				s.Value = &nv
				changed = true
			}
		}
	}
	if e := s.Enrichment; e != nil && e.URL != "" {
		if u, uk := redactURL(e.URL); uk != 0 {
			ne := *e
			ne.URL = u
			s.Enrichment = &ne
			k |= uk
			changed = true
		}
	}
	if n := s.Narration; n != nil {
		if t, tk := redactText(*n); tk != 0 {
			s.Narration = &t
			k |= tk
			changed = true
		}
	}
	if t, tk := redactText(s.ActiveWindow); tk != 0 {
		s.ActiveWindow = t
		k |= tk
		changed = true
	}
	if ef := s.Effect; ef != nil {
		if ne, ek := redactEffect(ef); ek != 0 {
			s.Effect = ne
			k |= ek
			changed = true
		}
	}
	if s.Value != nil && s.Value.Type == events.ValueSecret && !s.Redacted {
		changed = true
	}
	if changed {
		s.Redacted = true
	}
	return changed, k.names()
}

// redactEffect scrubs what a page showed after a destructive step (its
// texts and new URL may quote what was filed), into a fresh copy when any
// detector fires.
func redactEffect(ef *events.Effect) (*events.Effect, kindSet) {
	var k kindSet
	ne := *ef
	if ef.URL != "" {
		if u, uk := redactURL(ef.URL); uk != 0 {
			ne.URL, k = u, k|uk
		}
	}
	copied := false
	for i, t := range ef.Texts {
		if r, tk := redactText(t); tk != 0 {
			if !copied {
				ne.Texts, copied = slices.Clone(ef.Texts), true
			}
			ne.Texts[i], k = r, k|tk
		}
	}
	if k == 0 {
		return ef, 0
	}
	return &ne, k
}

// valueKinds decides whether a value must go, and why. A value already of
// type secret always goes; otherwise field context comes before the shape
// detectors, because a short code or password has no shape to detect.
func valueKinds(v *events.Value, e *events.Enrichment) kindSet {
	if v.Type == events.ValueSecret {
		if v.Raw != "" {
			return kPassword
		}
		return 0
	}
	if e != nil {
		if k := fieldKinds(fieldContext(e), v.Raw); k != 0 {
			return k
		}
	}
	return scan(v.Raw, true)
}

// Scan reports which detector kinds fire on text, in a fixed order, or nil
// when none do. It knows no field context, so it never reports a password,
// one-time code or card security code.
func Scan(text string) []string {
	return scan(text, true).names()
}

// Text returns text with every detected secret replaced by Mask, and the
// kinds that fired. Text that holds no detected secret comes back unchanged.
func Text(text string) (string, []string) {
	t, k := redactText(text)
	return t, k.names()
}

// URL returns u with the values of secret-bearing query and fragment
// parameters, a userinfo password, and path segments holding a detected
// secret replaced, and the kinds that fired. The rest of u, including the
// order and encoding of the other parameters, is kept as it was.
func URL(u string) (string, []string) {
	r, k := redactURL(u)
	return r, k.names()
}
