package redact

// Card reports whether s contains a payment card number: 14 to 19 digits,
// optionally grouped by single spaces or dashes, with a known issuer prefix
// for its length and a valid Luhn check digit.
func Card(s string) bool { return len(findCards(s, nil)) > 0 }

// SSN reports whether s contains a US social security number written
// AAA-GG-SSSS (or with spaces), outside the ranges never issued: area 000,
// 666 or 9xx, group 00, serial 0000.
func SSN(s string) bool { return len(findSSNs(s, nil)) > 0 }

// maxGroups bounds how many digit groups one card candidate may span.
const maxGroups = 20

// findCards walks runs of digit groups separated by one space or dash and
// tries every run of consecutive groups holding 14 to 19 digits, so a card
// number stays detectable next to other numbers ("qty 2 4111 1111 ...").
func findCards(s string, out []span) []span {
	for i := 0; i < len(s); {
		if !isDigit(s[i]) || alnumBefore(s, i) {
			i++
			continue
		}
		var g [maxGroups]span
		n, j := 0, i
		for n < maxGroups {
			k := j
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			g[n] = span{j, k}
			n++
			if k+1 < len(s) && (s[k] == ' ' || s[k] == '-') && isDigit(s[k+1]) {
				j = k + 1
				continue
			}
			j = k
			break
		}
		for a := 0; a < n; a++ {
			digits := 0
			for b := a; b < n; b++ {
				digits += g[b].j - g[b].i
				if digits > 19 {
					break
				}
				if digits >= 14 && !(b == n-1 && isAlpha(at(s, g[b].j))) && cardNumber(s[g[a].i:g[b].j], digits) {
					out = append(out, span{g[a].i, g[b].j})
					a = b
					break
				}
			}
		}
		i = j
	}
	return out
}

// at returns s[i], or 0 past the end.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// cardNumber checks the digits of s (separators skipped): issuer prefix for
// the length, then Luhn.
func cardNumber(s string, n int) bool {
	var d [19]byte
	k := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			d[k] = s[i] - '0'
			k++
		}
	}
	return knownIIN(d[:n]) && luhn(d[:n])
}

// luhn reports whether digits end in a valid Luhn check digit.
func luhn(d []byte) bool {
	sum := 0
	for i := len(d) - 1; i >= 0; i -= 2 {
		sum += int(d[i])
		if i > 0 {
			x := int(d[i-1]) * 2
			if x > 9 {
				x -= 9
			}
			sum += x
		}
	}
	return sum%10 == 0
}

// iin is an issuer prefix range over the first digits digits of a number,
// with the lengths that issuer uses (bit n set for length n).
type iin struct {
	digits  int
	lo, hi  int
	lengths uint32
}

func lens(ns ...int) (m uint32) {
	for _, n := range ns {
		m |= 1 << n
	}
	return m
}

var (
	len16to19 = lens(16, 17, 18, 19)
	iins      = []iin{
		{1, 4, 4, lens(16, 19)},                 // Visa; 13-digit Visa is retired, and EAN-13 barcodes start with 4
		{2, 51, 55, lens(16)},                   // Mastercard
		{4, 2221, 2720, lens(16)},               // Mastercard 2-series
		{2, 34, 34, lens(15)},                   // American Express
		{2, 37, 37, lens(15)},                   // American Express
		{4, 6011, 6011, len16to19},              // Discover
		{3, 644, 649, len16to19},                // Discover
		{2, 65, 65, len16to19},                  // Discover, RuPay
		{2, 62, 62, len16to19},                  // UnionPay
		{3, 300, 305, lens(14, 16, 17, 18, 19)}, // Diners Club
		{2, 36, 36, lens(14, 16, 17, 18, 19)},   // Diners Club
		{2, 38, 39, lens(14, 16, 17, 18, 19)},   // Diners Club
		{4, 3528, 3589, len16to19},              // JCB
		{4, 2200, 2204, len16to19},              // Mir
		{2, 50, 50, len16to19},                  // Maestro
		{2, 56, 58, len16to19},                  // Maestro
		{2, 60, 60, len16to19},                  // RuPay, Maestro
		{2, 63, 63, len16to19},                  // Maestro
		{2, 67, 67, len16to19},                  // Maestro
		{2, 81, 82, lens(16)},                   // RuPay
	}
)

// knownIIN reports whether d starts with an issuer prefix that issues
// numbers of len(d) digits.
func knownIIN(d []byte) bool {
	for _, r := range iins {
		if r.lengths&(1<<len(d)) == 0 {
			continue
		}
		p := 0
		for _, x := range d[:r.digits] {
			p = p*10 + int(x)
		}
		if p >= r.lo && p <= r.hi {
			return true
		}
	}
	return false
}

// findSSNs matches AAA-GG-SSSS with one separator, dash or space, used
// twice, standing alone: not inside a longer run of digits and dashes.
func findSSNs(s string, out []span) []span {
	for i := 0; i+11 <= len(s); i++ {
		if !isDigit(s[i]) || alnumBefore(s, i) || joined(s, i-1, -1) {
			continue
		}
		sep := s[i+3]
		if sep != '-' && sep != ' ' || s[i+6] != sep ||
			!digits(s[i:i+3]) || !digits(s[i+4:i+6]) || !digits(s[i+7:i+11]) ||
			alnumAt(s, i+11) || joined(s, i+11, 1) {
			continue
		}
		if validSSN(s[i:i+3], s[i+4:i+6], s[i+7:i+11]) {
			out = append(out, span{i, i + 11})
			i += 10
		}
	}
	return out
}

// joined reports whether s[at] is a separator that ties a neighbouring digit
// (in direction dir) to the candidate, as in a phone or part number.
func joined(s string, at, dir int) bool {
	if at < 0 || at >= len(s) {
		return false
	}
	c := s[at]
	if c != '-' && c != '.' && c != '/' {
		return false
	}
	n := at + dir
	return n >= 0 && n < len(s) && isDigit(s[n])
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return len(s) > 0
}

// validSSN excludes the numbers the Social Security Administration never
// issues.
func validSSN(area, group, serial string) bool {
	return area != "000" && area != "666" && area[0] != '9' &&
		group != "00" && serial != "0000"
}
