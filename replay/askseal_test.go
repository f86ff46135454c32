package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
)

var tokenShape = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)

func TestAskTokens(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		tok := NewAskToken()
		if !tokenShape.MatchString(tok) {
			t.Fatalf("NewAskToken() = %q; want 3 groups of 4 of Crockford's base32", tok)
		}
		if seen[tok] {
			t.Fatalf("NewAskToken() repeated %q", tok)
		}
		seen[tok] = true
	}
	tests := []struct {
		in, want string
		err      error
	}{
		{"7K2M-QX9D-H4TB", "7K2MQX9DH4TB", nil},
		{" 7k2m qx9d h4tb\t", "7K2MQX9DH4TB", nil},
		{"OIL0-0000-0000", "011000000000", nil},
		{"7K2M-QX9D-H4T", "", ErrAskToken},
		{"7K2M-QX9D-H4TBX", "", ErrAskToken},
		{"7K2M-QX9D-H4TU", "", ErrAskToken},
		{"7K2M-QX9D-H4T\u00e9", "", ErrAskToken},
		{"", "", ErrAskToken},
	}
	for _, tt := range tests {
		got, err := normalizeAskToken(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("normalizeAskToken(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	if _, err := DeriveAskKey("run_1", "nope"); !errors.Is(err, ErrAskToken) || strings.Contains(err.Error(), "nope") {
		t.Errorf("DeriveAskKey(a bad token) = %v; want ErrAskToken, without what was typed", err)
	}
	if _, err := DeriveAskKey("not-a-run", NewAskToken()); err == nil {
		t.Errorf("DeriveAskKey(not-a-run) = nil error; want one")
	}
}

// TestAskKeySeals: an answer opens only under its question's key, typed in
// any case; a reply is believed only for the answer it replies to.
func TestAskKeySeals(t *testing.T) {
	tok := NewAskToken()
	key := mustDerive(t, "run_1", tok)
	typed := mustDerive(t, "run_1", strings.ToLower(strings.ReplaceAll(tok, "-", " ")))
	if typed.Subject() != key.Subject() || !strings.HasPrefix(key.Subject(), "local.ask.run_1.q.") {
		t.Fatalf("subjects %s, %s; want one under local.ask.run_1.q.", key.Subject(), typed.Subject())
	}
	otherToken := mustDerive(t, "run_1", NewAskToken())
	otherRun := mustDerive(t, "run_2", tok)

	sealed, err := typed.SealAnswer(Answer{Row: 2, Answer: "C0DE-77"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("C0DE-77")) {
		t.Errorf("the sealed answer holds its plaintext")
	}
	if a, err := key.OpenAnswer(sealed); err != nil || a != (Answer{Row: 2, Answer: "C0DE-77"}) {
		t.Errorf("OpenAnswer = %+v, %v; want row 2's answer", a, err)
	}
	reply := key.SealReply(sealed, AnswerReply{Row: 2, Step: 4})
	if r, err := typed.OpenReply(sealed, reply); err != nil || r != (AnswerReply{Row: 2, Step: 4}) {
		t.Errorf("OpenReply = %+v, %v; want row 2, step 4", r, err)
	}

	another, _ := typed.SealAnswer(Answer{Answer: "C0DE-77"})
	plain, _ := json.Marshal(Answer{Answer: "C0DE-77"})
	plainReply, _ := json.Marshal(AnswerReply{Row: 2, Step: 4})
	flipped := bytes.Clone(sealed)
	flipped[len(flipped)-1] ^= 1
	refused := []struct {
		name string
		err  error
	}{
		{"another token's answer", open(otherToken.OpenAnswer, sealed)},
		{"another run's answer", open(otherRun.OpenAnswer, sealed)},
		{"a changed byte", open(key.OpenAnswer, flipped)},
		{"a cut answer", open(key.OpenAnswer, sealed[:len(sealed)-1])},
		{"only the header", open(key.OpenAnswer, sealed[:1])},
		{"nothing", open(key.OpenAnswer, nil)},
		{"a plain answer", open(key.OpenAnswer, plain)},
		{"a reply read as an answer", open(key.OpenAnswer, reply)},
		{"a reply to another answer", openReply(typed, another, reply)},
		{"a plain reply", openReply(typed, sealed, plainReply)},
		{"another token's reply", openReply(otherToken, sealed, reply)},
		{"a reply to a cut answer", openReply(typed, sealed[:5], reply)},
	}
	for _, r := range refused {
		if r.err == nil {
			t.Errorf("%s: opened; want it refused", r.name)
		}
	}
	if _, err := key.SealAnswer(Answer{Answer: strings.Repeat("x", MaxAnswerLen+1)}); err == nil {
		t.Errorf("SealAnswer(%d bytes) = nil error; want the limit", MaxAnswerLen+1)
	}
	if !IsSealed(sealed) || IsSealed(plain) || IsSealed(nil) {
		t.Errorf("IsSealed: sealed %v, plain %v; want true, false", IsSealed(sealed), IsSealed(plain))
	}
}

func mustDerive(t testing.TB, run, token string) *AskKey {
	t.Helper()
	k, err := DeriveAskKey(run, token)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func open(f func([]byte) (Answer, error), b []byte) error {
	_, err := f(b)
	return err
}

func openReply(k *AskKey, answer, reply []byte) error {
	_, err := k.OpenReply(answer, reply)
	return err
}

// fuzzKey is a fixed key for the fuzz tests, made without the slow KDF.
func fuzzKey(t testing.TB) *AskKey {
	k, err := newAskKey("run_fuzz", bytes.Repeat([]byte{7}, 48))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// fixedSeal seals as AskKey.seal does, with a fixed nonce: the fuzzing
// workers are processes of their own, and each must make the same seeds.
func fixedSeal(k *AskKey, kind string, bind, plaintext []byte) []byte {
	nonce := bytes.Repeat([]byte{9}, k.aead.NonceSize())
	return k.aead.Seal(append([]byte{askSealed}, nonce...), nonce, plaintext, k.additionalData(kind, bind))
}

// FuzzOpenAnswer: whatever arrives on a question's subject, opening it
// neither panics nor accepts anything but what was sealed for it.
func FuzzOpenAnswer(f *testing.F) {
	k := fuzzKey(f)
	good := fixedSeal(k, "answer", nil, []byte(`{"row":1,"answer":"123456"}`))
	f.Add(good)
	f.Add(good[:len(good)-1])
	f.Add([]byte{askSealed})
	f.Add([]byte(`{"answer":"123456"}`))
	f.Add(k.SealReply(good, AnswerReply{Row: 1}))
	f.Add(fixedSeal(k, "answer", nil, []byte("not json")))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := k.OpenAnswer(b)
		if err != nil {
			if !errors.Is(err, ErrNotAccepted) {
				t.Fatalf("OpenAnswer = %v; want ErrNotAccepted", err)
			}
			return
		}
		if !bytes.Equal(b, good) || a.Answer != "123456" {
			t.Fatalf("OpenAnswer(%x) = %+v; only the sealed answer opens", b, a)
		}
	})
}

// FuzzOpenReply: `reprise runs answer` believes only the run's own sealed
// reply to its answer.
func FuzzOpenReply(f *testing.F) {
	k := fuzzKey(f)
	answer := fixedSeal(k, "answer", nil, []byte(`{"answer":"123456"}`))
	good := fixedSeal(k, "reply", k.answerNonce(answer), []byte(`{"row":3,"step":2}`))
	if r, err := k.OpenReply(answer, good); err != nil || r != (AnswerReply{Row: 3, Step: 2}) {
		f.Fatalf("OpenReply(the run's reply) = %+v, %v", r, err)
	}
	f.Add(good)
	f.Add([]byte(`{"row":3,"step":2}`))
	f.Add(answer)
	f.Add(good[:30])
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := k.OpenReply(answer, b)
		if err == nil && (!bytes.Equal(b, good) || r != (AnswerReply{Row: 3, Step: 2})) {
			t.Fatalf("OpenReply(%x) = %+v; only the run's reply opens", b, r)
		}
	})
}

// FuzzAskToken: any text typed as a token is either refused or read as 12
// characters of the alphabet.
func FuzzAskToken(f *testing.F) {
	for _, s := range []string{"7K2M-QX9D-H4TB", "oil0 0000 0000", "", "-----", "7K2M-QX9D-H4T\u00e9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := normalizeAskToken(s)
		if err != nil {
			return
		}
		if len(got) != askTokenLen || strings.Trim(got, askAlphabet) != "" {
			t.Fatalf("normalizeAskToken(%q) = %q; want 12 characters of %s", s, got, askAlphabet)
		}
	})
}
