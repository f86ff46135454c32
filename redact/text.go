package redact

import "strings"

// span is a half-open byte range [i, j) of a scanned string.
type span struct{ i, j int }

// detector finds one kind of secret in text, appending the spans it matched
// to out. Finders allocate only when they match.
type detector struct {
	kind kindSet
	find func(s string, out []span) []span
	// strong detectors check a structure (a checksum, a prefix, a decodable
	// header); the entropy detector only guesses, so URL paths, where random
	// identifiers are ordinary, skip it.
	strong bool
}

var detectors = []detector{
	{kCard, findCards, true},
	{kSSN, findSSNs, true},
	{kIBAN, findIBANs, true},
	{kAPIKey, findKeys, true},
	{kJWT, findJWTs, true},
	{kPEM, findPEMs, true},
	{kHighEntropy, findHighEntropy, false},
}

// minSecretLen is the shortest text any detector matches (a dashed SSN).
const minSecretLen = 9

// scan reports which detectors fire on s; weak includes the entropy detector.
func scan(s string, weak bool) kindSet {
	if len(s) < minSecretLen {
		return 0
	}
	var k kindSet
	for _, d := range detectors {
		if !d.strong && !weak {
			continue
		}
		if len(d.find(s, nil)) > 0 {
			k |= d.kind
		}
	}
	return k
}

// spans returns every match of every detector in s, and their kinds.
func spans(s string, weak bool) ([]span, kindSet) {
	if len(s) < minSecretLen {
		return nil, 0
	}
	var out []span
	var k kindSet
	for _, d := range detectors {
		if !d.strong && !weak {
			continue
		}
		n := len(out)
		out = d.find(s, out)
		if len(out) > n {
			k |= d.kind
		}
	}
	return out, k
}

// maxPasses bounds redactText's search for a fixed point; masking a match
// can split a token into pieces that a second pass judges on their own.
const maxPasses = 4

// redactText replaces every detected secret in s with Mask. It repeats until
// nothing more is found, so that redacting its result changes nothing.
func redactText(s string) (string, kindSet) {
	var all kindSet
	for range maxPasses {
		found, k := spans(s, true)
		if k == 0 {
			break
		}
		all |= k
		s = mask(s, found, Mask)
	}
	return s, all
}

// mask replaces the spans of s with m, merging overlapping spans.
func mask(s string, found []span, m string) string {
	sortSpans(found)
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for idx := 0; idx < len(found); {
		i, j := found[idx].i, found[idx].j
		for idx++; idx < len(found) && found[idx].i <= j; idx++ {
			j = max(j, found[idx].j)
		}
		if i < at {
			i = at
		}
		b.WriteString(s[at:i])
		b.WriteString(m)
		at = j
	}
	b.WriteString(s[at:])
	return b.String()
}

// sortSpans orders spans by start; there are few, so insertion sort does.
func sortSpans(x []span) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j].i < x[j-1].i; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

// Byte classes, looked up in one table.
const (
	cDigit = 1 << iota
	cUpper
	cLower
	cKey     // '_' and '-': inside API keys and base64url
	cB64     // '+', '/', '=': inside standard base64
	cHex     // 0-9, a-f, A-F
	cAlnum   = cDigit | cUpper | cLower
	cKeyChar = cAlnum | cKey
)

var class = func() (t [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] = cDigit | cHex
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = cUpper
		t[c+'a'-'A'] = cLower
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] |= cHex
		t[c-'a'+'A'] |= cHex
	}
	t['_'], t['-'] = cKey, cKey
	t['+'], t['/'], t['='] = cB64, cB64, cB64
	return t
}()

func isDigit(c byte) bool { return class[c]&cDigit != 0 }
func isAlnum(c byte) bool { return class[c]&cAlnum != 0 }
func isAlpha(c byte) bool { return class[c]&(cUpper|cLower) != 0 }

// alnumBefore reports whether s has a letter or digit just before i.
func alnumBefore(s string, i int) bool { return i > 0 && isAlnum(s[i-1]) }

// alnumAt reports whether s has a letter or digit at i.
func alnumAt(s string, i int) bool { return i < len(s) && isAlnum(s[i]) }
