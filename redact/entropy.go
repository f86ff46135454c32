package redact

import "math"

// HighEntropy reports whether s contains a token that looks random enough to
// be a key: at least 20 characters of letters, digits and base64 symbols
// that mix character classes the way random text does, not the way words,
// part numbers and identifiers do.
//
// Ordinary identifiers stay: UUIDs (alone or inside a token such as
// rec_<uuid>) are skipped, and a token needs upper case, lower case and
// digits, or 24+ characters of one case and digits, with frequent class
// changes, to count. Hex strings count from 32 characters, so a pasted
// 32-, 40- or 64-hex key is caught, at the cost of also catching a commit
// hash or checksum; the exception is the compact form of a UUID.
func HighEntropy(s string) bool { return len(findHighEntropy(s, nil)) > 0 }

const (
	minEntropyLen = 20 // shortest token judged
	minOneCaseLen = 24 // shortest one-case-and-digits token judged
	minHexLen     = 32 // shortest hex token judged
	minBits       = 3.0
	// minSwitches is the share of adjacent letter/digit pairs that change
	// class (lower, upper, digit). Random base62 changes about 62% of the
	// time, random hex 47%; camelCase words and part numbers 10 to 20%.
	minSwitches = 0.3
)

func tokenByte(c byte) bool { return class[c]&(cKeyChar|cB64) != 0 }

// findHighEntropy splits s into tokens of base64url and base64 bytes. '='
// ends a token unless it is padding (followed by '=' or the token's end), so
// "key=value" is judged on its value.
func findHighEntropy(s string, out []span) []span {
	for i := 0; i < len(s); {
		if !tokenByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && tokenByte(s[j]) {
			if s[j] == '=' && j+1 < len(s) && s[j+1] != '=' && tokenByte(s[j+1]) {
				break
			}
			j++
		}
		if j-i >= minEntropyLen {
			out = judgeToken(s, i, j, out)
		}
		if j == i {
			j++
		}
		i = j
	}
	return out
}

// judgeToken judges s[i:j], or the pieces of it left around UUIDs.
func judgeToken(s string, i, j int, out []span) []span {
	for k := i; k+36 <= j; k++ {
		if isUUID(s[k : k+36]) {
			out = judgeToken(s, i, k, out)
			return judgeToken(s, k+36, j, out)
		}
	}
	for i < j && class[s[i]]&cAlnum == 0 {
		i++
	}
	for j > i && class[s[j-1]]&cAlnum == 0 {
		j--
	}
	if j-i >= minEntropyLen && randomToken(s[i:j]) {
		out = append(out, span{i, j})
	}
	return out
}

// randomToken applies the class, length, class-change and entropy rules.
func randomToken(t string) bool {
	var seen uint8
	hexOnly, lowerHex, upperHex := true, true, true
	pairs, switches := 0, 0
	var prev uint8
	for i := 0; i < len(t); i++ {
		c := class[t[i]]
		seen |= c
		if c&cHex == 0 {
			hexOnly = false
		}
		if c&cUpper != 0 {
			lowerHex = false
		}
		if c&cLower != 0 {
			upperHex = false
		}
		cur := c & cAlnum
		if cur != 0 && prev != 0 {
			pairs++
			if cur != prev {
				switches++
			}
		}
		prev = cur
	}
	if pairs == 0 || float64(switches)/float64(pairs) < minSwitches {
		return false
	}
	alnum := seen & cAlnum
	switch {
	case hexOnly && (lowerHex || upperHex):
		if len(t) < minHexLen || alnum&cDigit == 0 || alnum == cDigit || compactUUID(t) {
			return false
		}
		return entropy(t) >= minBits
	case alnum == cAlnum:
	case alnum == cUpper|cDigit || alnum == cLower|cDigit:
		if len(t) < minOneCaseLen {
			return false
		}
	default:
		return false
	}
	return entropy(t) >= minBits+0.5
}

// entropy is the Shannon entropy of t in bits per byte.
func entropy(t string) float64 {
	var counts [256]uint32
	for i := 0; i < len(t); i++ {
		counts[t[i]]++
	}
	n := float64(len(t))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// isUUID reports whether s is 8-4-4-4-12 hex digits.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if class[s[i]]&cHex == 0 {
				return false
			}
		}
	}
	return true
}

// compactUUID reports whether 32 hex digits carry a UUID's version (1-8)
// and RFC 4122 variant nibbles.
func compactUUID(t string) bool {
	if len(t) != 32 || t[12] < '1' || t[12] > '8' {
		return false
	}
	switch t[16] {
	case '8', '9', 'a', 'b', 'A', 'B':
		return true
	}
	return false
}
