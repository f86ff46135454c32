package consent

import (
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
)

// FuzzVerify: no token string panics the decoder, a refusal is always
// ErrConsentRequired without the token in it, and an accepted token is in
// its one canonical spelling. (The key is fixed, so the seed token, issued
// in each fuzzing process, verifies in all of them.)
func FuzzVerify(f *testing.F) {
	seed := make([]byte, ed25519.SeedSize)
	key := ed25519.NewKeyFromSeed(seed)
	is := &Issuer{key: key, pub: key.Public().(ed25519.PublicKey), machineID: testMachine, ttl: DefaultTTL, now: time.Now}
	good, _, err := is.Issue(extractReq)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"", ".", "..", "a.b", good, good + "x", strings.Replace(good, ".", "..", 1), "eyJ9.AAAA"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		c, err := is.verify(tok)
		if err != nil {
			if !errors.Is(err, ErrConsentRequired) {
				t.Fatalf("verify(%q) = %v; want ErrConsentRequired", tok, err)
			}
			if len(tok) >= 16 && strings.Contains(err.Error(), tok) {
				t.Fatalf("verify's refusal contains the token")
			}
			return
		}
		p, sig, _ := strings.Cut(tok, ".")
		raw, _ := b64.DecodeString(sig)
		if b64.EncodeToString(raw) != sig || c.MachineID != testMachine || c.ID == "" || len(p) == 0 {
			t.Fatalf("verify accepted %q, not a canonical token of this shim", tok)
		}
	})
}

// FuzzParseKind: ParseKind never panics, and what it accepts is a Kind.
func FuzzParseKind(f *testing.F) {
	for _, s := range []string{"", "copilot.local_vlm.floor", "demonstration.screenshots_to_cloud.browser-desktop_ax-floor", "a.b.c.d", "..", "copilot.local_vlm.floor-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, kind string) {
		r, err := ParseKind(kind)
		if err != nil {
			if !errors.Is(err, ErrInvalidRequest) {
				t.Fatalf("ParseKind(%q) = %v; want ErrInvalidRequest", kind, err)
			}
			return
		}
		if r.Kind() != kind || r.Validate() != nil {
			t.Fatalf("ParseKind(%q) = %+v, which is not that kind", kind, r)
		}
	})
}

// FuzzDecodeBody: the service's decoder refuses or decodes, never panics.
func FuzzDecodeBody(f *testing.F) {
	for _, s := range []string{"", "{}", `{"id":"x","remember":true}`, `{"id":1}`, "[", `{"kind":"a","all":true}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var a api.ConsentAnswerRequest
		_ = decodeBody(body, &a, false)
		var fr api.ConsentForgetRequest
		_ = decodeBody(body, &fr, true)
	})
}
