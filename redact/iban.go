package redact

// IBAN reports whether s contains an international bank account number: a
// known country code, two check digits and the country's length of
// alphanumerics, compact or grouped by single spaces, passing the mod-97
// check.
func IBAN(s string) bool { return len(findIBANs(s, nil)) > 0 }

// ibanLen is the IBAN length of each country this detector knows (ISO 13616
// registry); an IBAN from a country not listed here is not detected.
var ibanLen = map[[2]byte]int{
	{'A', 'D'}: 24, {'A', 'E'}: 23, {'A', 'L'}: 28, {'A', 'T'}: 20, {'A', 'Z'}: 28,
	{'B', 'A'}: 20, {'B', 'E'}: 16, {'B', 'G'}: 22, {'B', 'H'}: 22, {'B', 'R'}: 29,
	{'C', 'H'}: 21, {'C', 'R'}: 22, {'C', 'Y'}: 28, {'C', 'Z'}: 24, {'D', 'E'}: 22,
	{'D', 'K'}: 18, {'D', 'O'}: 28, {'E', 'E'}: 20, {'E', 'G'}: 29, {'E', 'S'}: 24,
	{'F', 'I'}: 18, {'F', 'O'}: 18, {'F', 'R'}: 27, {'G', 'B'}: 22, {'G', 'E'}: 22,
	{'G', 'I'}: 23, {'G', 'L'}: 18, {'G', 'R'}: 27, {'G', 'T'}: 28, {'H', 'R'}: 21,
	{'H', 'U'}: 28, {'I', 'E'}: 22, {'I', 'L'}: 23, {'I', 'S'}: 26, {'I', 'T'}: 27,
	{'J', 'O'}: 30, {'K', 'W'}: 30, {'K', 'Z'}: 20, {'L', 'B'}: 28, {'L', 'I'}: 21,
	{'L', 'T'}: 20, {'L', 'U'}: 20, {'L', 'V'}: 21, {'M', 'C'}: 27, {'M', 'D'}: 24,
	{'M', 'E'}: 22, {'M', 'K'}: 19, {'M', 'R'}: 27, {'M', 'T'}: 31, {'M', 'U'}: 30,
	{'N', 'L'}: 18, {'N', 'O'}: 15, {'P', 'K'}: 24, {'P', 'L'}: 28, {'P', 'S'}: 29,
	{'P', 'T'}: 25, {'Q', 'A'}: 29, {'R', 'O'}: 24, {'R', 'S'}: 22, {'S', 'A'}: 24,
	{'S', 'E'}: 24, {'S', 'I'}: 19, {'S', 'K'}: 24, {'S', 'M'}: 27, {'T', 'N'}: 24,
	{'T', 'R'}: 26, {'U', 'A'}: 29, {'V', 'G'}: 24, {'X', 'K'}: 20,
}

const maxIBAN = 34

func findIBANs(s string, out []span) []span {
	for i := 0; i+15 <= len(s); i++ {
		if !isDigit(s[i+2]) || !isDigit(s[i+3]) || !isAlpha(s[i]) || !isAlpha(s[i+1]) || alnumBefore(s, i) {
			continue
		}
		want, ok := ibanLen[[2]byte{upper(s[i]), upper(s[i+1])}]
		if !ok {
			continue
		}
		var buf [maxIBAN]byte
		n, j := 0, i
		for n < want && j < len(s) {
			switch {
			case isAlnum(s[j]):
				buf[n] = upper(s[j])
				n++
				j++
			case s[j] == ' ' && alnumAt(s, j+1):
				j++
			default:
				want = -1
			}
		}
		if n == want && !alnumAt(s, j) && mod97(buf[:n]) == 1 {
			out = append(out, span{i, j})
			i = j - 1
		}
	}
	return out
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// mod97 computes the ISO 7064 remainder of an IBAN: the first four
// characters moved to the end, letters counted as 10 to 35.
func mod97(b []byte) int {
	r := 0
	add := func(c byte) {
		if isDigit(c) {
			r = (r*10 + int(c-'0')) % 97
		} else {
			r = (r*100 + int(c-'A') + 10) % 97
		}
	}
	for _, c := range b[4:] {
		add(c)
	}
	for _, c := range b[:4] {
		add(c)
	}
	return r
}
