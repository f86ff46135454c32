package redact

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// APIKey reports whether s contains an API key or token of a well-known
// shape: AWS access key ids, GitHub, GitLab, Slack, Stripe, Google, OpenAI,
// Anthropic, Twilio, SendGrid, npm, PyPI, Hugging Face, Shopify,
// DigitalOcean and Square tokens.
func APIKey(s string) bool { return len(findKeys(s, nil)) > 0 }

// JWT reports whether s contains a JSON web token: dot-separated base64url
// segments whose first decodes to a JSON object with an "alg" member.
func JWT(s string) bool { return len(findJWTs(s, nil)) > 0 }

// PEM reports whether s contains a PEM block (a private key, a certificate,
// a PGP block), whole or cut off after its BEGIN line.
func PEM(s string) bool { return len(findPEMs(s, nil)) > 0 }

// keyShape is a token that starts with a fixed prefix followed by a body of
// one character class, min to max bytes long (max 0: no limit).
type keyShape struct {
	prefix   string
	body     uint8 // class bits a body byte must have
	hexOnly  bool
	min, max int
	// mixed asks the body for upper case, lower case and digits: it keeps a
	// short generic prefix such as "sk-" from matching hyphenated words.
	mixed bool
}

var keyShapes = []keyShape{
	{prefix: "AKIA", body: cUpper | cDigit, min: 16, max: 16},
	{prefix: "ASIA", body: cUpper | cDigit, min: 16, max: 16},
	{prefix: "ghp_", body: cAlnum, min: 36, max: 36},
	{prefix: "gho_", body: cAlnum, min: 36, max: 36},
	{prefix: "ghu_", body: cAlnum, min: 36, max: 36},
	{prefix: "ghs_", body: cAlnum, min: 36, max: 36},
	{prefix: "ghr_", body: cAlnum, min: 36, max: 36},
	{prefix: "github_pat_", body: cKeyChar, min: 40},
	{prefix: "glpat-", body: cKeyChar, min: 20},
	{prefix: "xoxa-", body: cKeyChar, min: 10},
	{prefix: "xoxb-", body: cKeyChar, min: 10},
	{prefix: "xoxp-", body: cKeyChar, min: 10},
	{prefix: "xoxr-", body: cKeyChar, min: 10},
	{prefix: "xoxs-", body: cKeyChar, min: 10},
	{prefix: "xapp-", body: cKeyChar, min: 10},
	{prefix: "sk_live_", body: cAlnum, min: 16},
	{prefix: "rk_live_", body: cAlnum, min: 16},
	{prefix: "pk_live_", body: cAlnum, min: 16},
	{prefix: "sk_test_", body: cAlnum, min: 16},
	{prefix: "rk_test_", body: cAlnum, min: 16},
	{prefix: "whsec_", body: cAlnum, min: 24},
	{prefix: "AIza", body: cKeyChar, min: 35, max: 35},
	{prefix: "ya29.", body: cKeyChar, min: 20},
	{prefix: "sk-ant-", body: cKeyChar, min: 20},
	{prefix: "sk-", body: cKeyChar, min: 20, mixed: true},
	{prefix: "SK", body: cHex, hexOnly: true, min: 32, max: 32},
	{prefix: "AC", body: cHex, hexOnly: true, min: 32, max: 32},
	{prefix: "SG.", body: cKeyChar | cDot, min: 60, max: 70},
	{prefix: "npm_", body: cAlnum, min: 36, max: 36},
	{prefix: "pypi-AgEIcHlwaS5vcmc", body: cKeyChar, min: 30},
	{prefix: "hf_", body: cUpper | cLower, min: 30, max: 40},
	{prefix: "shpat_", body: cHex, hexOnly: true, min: 32, max: 32},
	{prefix: "shpss_", body: cHex, hexOnly: true, min: 32, max: 32},
	{prefix: "shpca_", body: cHex, hexOnly: true, min: 32, max: 32},
	{prefix: "dop_v1_", body: cHex, hexOnly: true, min: 64, max: 64},
	{prefix: "sq0atp-", body: cKeyChar, min: 22},
	{prefix: "sq0csp-", body: cKeyChar, min: 40},
}

// cDot lets a body hold '.', which only SendGrid keys use; it is a pseudo
// class checked by bodyByte, not set in the class table.
const cDot = 1 << 7

// keysByFirst lists the shapes by the first byte of their prefix, so the
// scan skips every other byte at a glance and tries few prefixes at the rest.
var keysByFirst = func() (t [256][]*keyShape) {
	for i := range keyShapes {
		k := &keyShapes[i]
		t[k.prefix[0]] = append(t[k.prefix[0]], k)
	}
	return t
}()

func bodyByte(c byte, want uint8, hexOnly bool) bool {
	if hexOnly {
		return class[c]&cHex != 0
	}
	if c == '.' {
		return want&cDot != 0
	}
	return class[c]&want != 0
}

func findKeys(s string, out []span) []span {
	for i := 0; i < len(s); i++ {
		if i > 0 && class[s[i-1]]&cKeyChar != 0 {
			continue
		}
		shapes := keysByFirst[s[i]]
		for _, k := range shapes {
			if !strings.HasPrefix(s[i:], k.prefix) {
				continue
			}
			j := i + len(k.prefix)
			for j < len(s) && bodyByte(s[j], k.body, k.hexOnly) {
				j++
			}
			n := j - i - len(k.prefix)
			if n < k.min || (k.max > 0 && n > k.max) || (j < len(s) && class[s[j]]&cKeyChar != 0) {
				continue
			}
			if k.mixed && classes(s[i+len(k.prefix):j]) != cAlnum {
				continue
			}
			out = append(out, span{i, j})
			i = j - 1
			break
		}
	}
	return out
}

// classes returns the union of the letter and digit classes in s.
func classes(s string) uint8 {
	var c uint8
	for i := 0; i < len(s); i++ {
		c |= class[s[i]]
	}
	return c & cAlnum
}

// findJWTs looks for "eyJ" (base64url for `{"`) at the start of a token and
// checks three (JWS) or five (JWE) segments and the header.
func findJWTs(s string, out []span) []span {
	for off := 0; ; {
		k := strings.Index(s[off:], "eyJ")
		if k < 0 {
			return out
		}
		i := off + k
		off = i + 3
		if i > 0 && (class[s[i-1]]&cKeyChar != 0 || s[i-1] == '.') {
			continue
		}
		j, segs, first := i, 1, -1
		for j < len(s) && (class[s[j]]&cKeyChar != 0 || s[j] == '.') {
			if s[j] == '.' {
				if first < 0 {
					first = j
				}
				segs++
			}
			j++
		}
		if (segs != 3 && segs != 5) || first < 0 || first-i < 10 || j-first < 10 || !jwtHeader(s[i:first]) {
			continue
		}
		out = append(out, span{i, j})
		off = j
	}
}

// jwtHeader reports whether seg decodes to a JSON object with "alg".
func jwtHeader(seg string) bool {
	if len(seg) > 2048 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(seg, "="))
	if err != nil {
		return false
	}
	var h struct {
		Alg *string `json:"alg"`
	}
	return json.Unmarshal(raw, &h) == nil && h.Alg != nil
}

// findPEMs matches from "-----BEGIN <label>-----" to the matching END line,
// or to the end of s when the block was cut off.
func findPEMs(s string, out []span) []span {
	const begin, dashes = "-----BEGIN ", "-----"
	for off := 0; ; {
		k := strings.Index(s[off:], begin)
		if k < 0 {
			return out
		}
		i := off + k
		rest := s[i+len(begin):]
		e := strings.Index(rest, dashes)
		if e <= 0 || e > 64 || !pemLabel(rest[:e]) {
			off = i + len(begin)
			continue
		}
		end := "-----END " + rest[:e] + dashes
		j := len(s)
		if m := strings.Index(rest[e:], end); m >= 0 {
			j = i + len(begin) + e + m + len(end)
		}
		out = append(out, span{i, j})
		off = j
	}
}

// pemLabel reports whether l is a PEM label as written in practice: upper
// case letters, digits and single spaces ("RSA PRIVATE KEY").
func pemLabel(l string) bool {
	for i := 0; i < len(l); i++ {
		c := l[i]
		if class[c]&(cUpper|cDigit) == 0 && (c != ' ' || i == 0 || l[i-1] == ' ') {
			return false
		}
	}
	return true
}
