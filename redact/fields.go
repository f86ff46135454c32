package redact

import (
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// Field context: the words of a field's label, role and id/name selectors
// that say what it holds. A phrase matches on word boundaries in the
// normalised context (" one time code "), except for the password words,
// which also match glued into identifiers ("newpassword").
var (
	passwordWords = []string{
		"password", "passwort", "passwd", "passcode", "passphrase", "contraseña",
		"contrasena", "mot de passe", "senha", "wachtwoord", "пароль", "パスワード",
		"密码", "비밀번호", "securetextfield",
	}
	passwordPhrases = []string{
		" pwd ", " pin ", " secret ", " api key ", " apikey ", " api token ",
		" access key ", " access token ", " auth token ", " bearer token ",
		" refresh token ", " private key ", " client secret ", " secret key ",
	}
	// passwordExceptions name fields near a password that hold none: a
	// password hint, and the Indian postal "PIN code" when said so.
	passwordExceptions = []string{" hint ", " postal ", " zip ", " pincode "}
	otpPhrases         = []string{
		" one time code ", " one time password ", " one time passcode ", " onetimecode ",
		" otp ", " totp ", " 2fa ", " mfa ", " two factor ", " 2 factor ", " two step ",
		" 2 step ", " verification code ", " verify code ", " authentication code ",
		" auth code ", " authenticator ", " security code ", " sms code ", " login code ",
		" sign in code ", " otpcode ", " totpcode ", " mfacode ", " smscode ",
		" verificationcode ",
	}
	cardCodePhrases = []string{
		" cvv ", " cvc ", " cvv2 ", " cvc2 ", " csc ", " card verification ",
		" card security code ", " security code ", " card code ", " verification value ",
	}
	ssnPhrases = []string{" ssn ", " social security "}
)

// PasswordField reports whether e, by its label, role or selectors, is a
// password, PIN or credential field, whose value must go whatever it looks
// like.
func PasswordField(e *events.Enrichment) bool {
	return e != nil && passwordFlags(fieldFlags(fieldContext(e)))
}

// OneTimeCodeField reports whether e, by its label, role or selectors, is a
// field for a one-time code (an OTP, a 2FA or verification code, an
// autocomplete="one-time-code" input).
func OneTimeCodeField(e *events.Enrichment) bool {
	return e != nil && fieldFlags(fieldContext(e))&fOTP != 0
}

// LooksLikeCode reports whether s has the shape of a one-time code: 4 to 8
// digits, or 4 to 10 letters and digits with at least one digit, allowing
// single spaces or dashes between characters ("123 456", "G-123456").
func LooksLikeCode(s string) bool {
	s = strings.TrimSpace(s)
	n, digit, alpha := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
			digit = true
		case isAlpha(c):
			alpha = true
		case (c == ' ' || c == '-') && i > 0 && i+1 < len(s) && isAlnum(s[i-1]) && isAlnum(s[i+1]):
			continue
		default:
			return false
		}
		n++
	}
	if !alpha {
		return n >= 4 && n <= 8
	}
	return digit && n >= 4 && n <= 10
}

// Field context groups, as fieldFlags reports them.
const (
	fPassword uint8 = 1 << iota
	fNotPassword
	fOTP
	fCardCode
	fSSN
)

// phrasesByWord indexes every phrase by its first word, so fieldFlags looks
// at each word of a context once instead of searching for every phrase.
var phrasesByWord = func() map[string][]flagPhrase {
	m := map[string][]flagPhrase{}
	add := func(flag uint8, list []string) {
		for _, p := range list {
			first, _, _ := strings.Cut(p[1:], " ")
			m[first] = append(m[first], flagPhrase{p, flag})
		}
	}
	add(fPassword, passwordPhrases)
	add(fNotPassword, passwordExceptions)
	add(fOTP, otpPhrases)
	add(fCardCode, cardCodePhrases)
	add(fSSN, ssnPhrases)
	return m
}()

type flagPhrase struct {
	phrase string
	flag   uint8
}

// fieldFlags reports which groups of phrases a normalised context holds.
func fieldFlags(ctx string) uint8 {
	var f uint8
	for i := 0; i < len(ctx); {
		if ctx[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(ctx) && ctx[j] != ' ' {
			j++
		}
		for _, p := range phrasesByWord[ctx[i:j]] {
			if strings.HasPrefix(ctx[i-1:], p.phrase) {
				f |= p.flag
			}
		}
		i = j
	}
	if strings.Contains(ctx, "pass") || strings.Contains(ctx, "securetextfield") || nonASCII(ctx) {
		for _, w := range passwordWords {
			if strings.Contains(ctx, w) {
				f |= fPassword
				break
			}
		}
	}
	return f
}

func nonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// fieldKinds judges raw by the field context ctx alone.
func fieldKinds(ctx, raw string) kindSet {
	if ctx == "" {
		return 0
	}
	f := fieldFlags(ctx)
	if f == 0 {
		return 0
	}
	t := strings.TrimSpace(raw)
	switch {
	case f&fCardCode != 0 && (len(t) == 3 || len(t) == 4) && digits(t):
		return kCardCode
	case f&fOTP != 0 && LooksLikeCode(t):
		return kOneTimeCode
	case passwordFlags(f):
		return kPassword
	case f&fSSN != 0 && len(t) == 9 && digits(t) && validSSN(t[:3], t[3:5], t[5:]):
		return kSSN
	}
	return 0
}

func passwordFlags(f uint8) bool { return f&fPassword != 0 && f&fNotPassword == 0 }

// fieldContext normalises the label, role and id, name and label selectors
// of e into lower-case words, each surrounded by single spaces, with
// camelCase split ("otpCode" reads " otp code "); "" when there are none.
func fieldContext(e *events.Enrichment) string {
	n := len(e.Label) + len(e.Role)
	for _, sel := range e.Selectors {
		n += len(sel.Value)
	}
	if n == 0 {
		return ""
	}
	b := make([]byte, 1, 2*n+2)
	b[0] = ' '
	space := func() {
		if b[len(b)-1] != ' ' {
			b = append(b, ' ')
		}
	}
	add := func(s string) {
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c >= 0x80:
				b = append(b, c)
			case class[c]&cUpper != 0:
				if i > 0 && (class[s[i-1]]&cLower != 0 ||
					class[s[i-1]]&cUpper != 0 && i+1 < len(s) && class[s[i+1]]&cLower != 0) {
					space()
				}
				b = append(b, c+'a'-'A')
			case class[c]&(cLower|cDigit) != 0:
				b = append(b, c)
			default:
				space()
			}
		}
		space()
	}
	add(e.Label)
	add(e.Role)
	for _, sel := range e.Selectors {
		switch sel.Strategy {
		case events.StrategyID, events.StrategyName, events.StrategyLabel:
			add(sel.Value)
		}
	}
	if len(b) == 1 {
		return ""
	}
	return string(b)
}
