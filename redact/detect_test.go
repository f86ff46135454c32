package redact

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

// fake builds a deterministic n-byte body from upper, lower and digits; it
// is shaped like a key body and is no key.
func fake(n int) string {
	const alphabet = "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF"
	var b strings.Builder
	for i := range n {
		b.WriteByte(alphabet[(i*7+i/len(alphabet))%len(alphabet)])
	}
	return b.String()
}

type detectCase struct {
	in   string
	want bool
}

func runDetector(t *testing.T, name string, f func(string) bool, cases []detectCase) {
	t.Helper()
	for _, c := range cases {
		if got := f(c.in); got != c.want {
			t.Errorf("%s(%q) = %v; want %v", name, c.in, got, c.want)
		}
	}
}

func TestCard(t *testing.T) {
	runDetector(t, "Card", Card, []detectCase{
		{"4111 1111 1111 1111", true},
		{"4111-1111-1111-1111", true},
		{"4111111111111111", true},
		{"5555555555554444", true},
		{"2223003122003222", true},
		{"378282246310005", true},
		{"3782 822463 10005", true},
		{"30569309025904", true},
		{"6011111111111117", true},
		{"3530111333300000", true},
		{"card: 4111 1111 1111 1111, exp 12/29", true},
		{"qty 2 4111 1111 1111 1111", true},
		{"4111 1111 1111 1111 2", true},
		{"4111 1111 1111 1112", false},  // Luhn
		{"1234567812345670", false},     // Luhn-valid, no issuer starts with 1
		{"4222222222222", false},        // 13 digits: retired Visa length, EAN-13 shape
		{"378282246310005 0", true},     // a card, then another number
		{"x4111111111111111", false},    // glued to a word
		{"41111111111111111111", false}, // 20 digits
		{"4111  1111 1111 1111", false}, // double space breaks the grouping
		{"**** **** **** 1111", false},
		{"", false},
	})
}

func TestSSN(t *testing.T) {
	runDetector(t, "SSN", SSN, []detectCase{
		{"123-45-6789", true},
		{"123 45 6789", true},
		{"SSN: 123-45-6789.", true},
		{"000-12-3456", false},
		{"666-12-3456", false},
		{"912-34-5678", false},
		{"123-00-4567", false},
		{"123-45-0000", false},
		{"123-45 6789", false},    // mixed separators
		{"123456789", false},      // compact only with a field label
		{"123-45-6789-01", false}, // part of a longer number
		{"1-123-45-6789", false},
		{"A123-45-6789", false},
		{"123-45-67890", false},
	})
}

func TestIBAN(t *testing.T) {
	runDetector(t, "IBAN", IBAN, []detectCase{
		{"DE89 3704 0044 0532 0130 00", true},
		{"DE89370400440532013000", true},
		{"de89370400440532013000", true},
		{"GB82 WEST 1234 5698 7654 32", true},
		{"pay to GB82WEST12345698765432.", true},
		{"NL91ABNA0417164300", true},
		{"DE88370400440532013000", false},    // check digits
		{"DE8937040044053201300", false},     // one short
		{"DE89370400440532013000123", false}, // too long for DE
		{"XX89370400440532013000", false},    // unknown country
		{"XDE89370400440532013000", false},
		{"DE89 (Germany)", false},
	})
}

func TestAPIKey(t *testing.T) {
	runDetector(t, "APIKey", APIKey, []detectCase{
		{"AKIAIOSFODNN7EXAMPLE", true},
		{"ASIAIOSFODNN7EXAMPLE", true},
		{"AKIAIOSFODNN7EXAMPLE1", false},
		{"xAKIAIOSFODNN7EXAMPLE", false},
		{"AKIA-TEAM-ONBOARDING", false},
		{"ghp_" + fake(36), true},
		{"ghp_" + fake(35), false},
		{"token=ghp_" + fake(36), true},
		{"github_pat_" + fake(22) + "_" + fake(59), true},
		{"xoxb-1234567890-" + fake(24), true},
		{"xoxq-1234567890-" + fake(24), false},
		{"sk_live_" + fake(24), true},
		{"pk_live_" + fake(24), true},
		{"sk_live_short", false},
		{"AIza" + fake(35), true},
		{"AIza" + fake(34), false},
		{"sk-" + fake(48), true},
		{"sk-proj-" + fake(40), true},
		{"sk-ant-api03-" + fake(80), true},
		{"sk-learn-tutorial-for-beginners", false},
		{"task-" + fake(40), false},
		{"SK" + strings.Repeat("0a1b", 8), true},
		{"SKU-12345", false},
		{"SG." + fake(22) + "." + fake(43), true},
		{"npm_" + fake(36), true},
		{"glpat-" + fake(20), true},
		{"hf_" + strings.Repeat("aBcD", 9)[:34], true},
	})
}

func TestJWT(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	body := enc([]byte(`{"sub":"1234567890","name":"Test User"}`)) + "." + fake(43)
	runDetector(t, "JWT", JWT, []detectCase{
		{enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + body, true},
		{"Bearer " + enc([]byte(`{"alg":"none"}`)) + "." + body, true},
		{enc([]byte(`{"typ":"JWT"}`)) + "." + body, false},       // no alg
		{enc([]byte(`{"alg":"HS256"`)) + "." + body, false},      // not JSON
		{enc([]byte(`{"alg":"HS256"}`)) + "." + fake(40), false}, // two segments
		{"eyJust kidding", false},
	})
}

func TestPEM(t *testing.T) {
	runDetector(t, "PEM", PEM, []detectCase{
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEow" + fake(60) + "\n-----END RSA PRIVATE KEY-----", true},
		{"-----BEGIN PRIVATE KEY-----\nMIIEvQ" + fake(60), true}, // cut off
		{"-----BEGIN CERTIFICATE-----\nMIIC" + fake(60) + "\n-----END CERTIFICATE-----", true},
		{"-----BEGIN OPENSSH PRIVATE KEY-----", true},
		{"-----BEGIN notes----- are not a key", false},
		{"-----BEGIN -----", false},
		{"----BEGIN PRIVATE KEY----", false},
	})
}

func TestHighEntropy(t *testing.T) {
	runDetector(t, "HighEntropy", HighEntropy, []detectCase{
		{"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", true},
		{"Xk9pQ2mZ7vB4nL8wR3tY", true},
		{"da39a3ee5e6b4b0d3255bfef95601890afd80709", true}, // 40 hex: a key or a hash; redacted
		{"secret=Xk9pQ2mZ7vB4nL8wR3tY", true},
		{"Xk9pQ2mZ7vB4nL8wR3t", false}, // 19
		{"550e8400-e29b-41d4-a716-446655440000", false},
		{"rec_550e8400-e29b-41d4-a716-446655440000", false},
		{"550e8400e29b41d4a716446655440000", false}, // compact UUID
		{"507f1f77bcf86cd799439011", false},         // 24-hex object id
		{"getUserAccountSettingsForDashboard", false},
		{"Acme-Widget-Pro-Max-2024-Blue-Edition", false},
		{"WH-1000XM5-BLK-2024-US", false},
		{"ORD-2024-000123", false},
		{"aaaaaaaaaaaaaaaaaaaaaaaa", false},
		{"12345678901234567890123", false},
		{"Donaudampfschifffahrtsgesellschaftskapitän", false},
		{"/Users/jsmith/Documents/Reports/Quarterly-Report-2024", false},
	})
}

func TestLooksLikeCode(t *testing.T) {
	runDetector(t, "LooksLikeCode", LooksLikeCode, []detectCase{
		{"482913", true},
		{"123 456", true},
		{" 4821 ", true},
		{"G-739201", true},
		{"ABCD12", true},
		{"12", false},
		{"123456789", false},
		{"hello", false},
		{"I did not get one", false},
		{"12  34", false},
	})
}

func TestFieldContext(t *testing.T) {
	for _, c := range []struct {
		label, id     string
		password, otp bool
	}{
		{"Password", "", true, false},
		{"", "#confirmPassword", true, false},
		{"Passwort", "", true, false},
		{"PIN", "", true, false},
		{"API key", "", true, false},
		{"Password hint", "", false, false},
		{"Boarding pass number", "", false, false},
		{"Postal PIN code", "", false, false},
		{"First Name", "#first_name", false, false},
		{"One-time code", "", false, true},
		{"", "otpCode", false, true},
		{"", "one-time-code", false, true},
		{"Enter 2FA code", "", false, true},
		{"Hotpot recipe", "", false, false},
		{"Confirmation code", "", false, false},
	} {
		e := &events.Enrichment{Kind: events.KindDOM, Label: c.label}
		if c.id != "" {
			e.Selectors = []events.Selector{{Strategy: events.StrategyID, Value: c.id}}
		}
		if got := PasswordField(e); got != c.password {
			t.Errorf("PasswordField(%q, %q) = %v; want %v", c.label, c.id, got, c.password)
		}
		if got := OneTimeCodeField(e); got != c.otp {
			t.Errorf("OneTimeCodeField(%q, %q) = %v; want %v", c.label, c.id, got, c.otp)
		}
	}
}
