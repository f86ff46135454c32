package consent

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/store"
)

var (
	extractReq = Request{ModeCopilot, RouteExtractThenCloud, []string{"floor", "browser"}}
	cloudReq   = Request{ModeCopilot, RouteScreenshotsToCloud, []string{"floor", "browser"}}
)

type tokenRig struct {
	s      *shim
	clk    *clock
	key    ed25519.PrivateKey
	issuer *Issuer
}

func newTokenRig(t *testing.T) *tokenRig {
	t.Helper()
	s := startShim(t)
	key, err := SigningKey(store.FileKeyStore{Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("SigningKey: %v", err)
	}
	r := &tokenRig{s: s, clk: &clock{t: time.Unix(1_800_000_000, 0)}, key: key}
	r.issuer = r.newIssuer(t, key, testMachine)
	return r
}

func (r *tokenRig) newIssuer(t *testing.T, key ed25519.PrivateKey, machine string) *Issuer {
	t.Helper()
	is, err := NewIssuer(IssuerConfig{Key: key, MachineID: machine, Now: r.clk.now, Used: r.s.consentBucket(t)})
	if err != nil {
		t.Fatalf("NewIssuer: %v", err)
	}
	return is
}

func issue(t *testing.T, is *Issuer, req Request) string {
	t.Helper()
	tok, _, err := is.Issue(req)
	if err != nil {
		t.Fatalf("Issue(%v): %v", req, err)
	}
	return tok
}

// flipSignature changes one byte of the token's signature.
func flipSignature(t *testing.T, tok string) string {
	p, s, _ := strings.Cut(tok, ".")
	sig, err := b64.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	sig[10] ^= 0x01
	return p + "." + b64.EncodeToString(sig)
}

// rewritePayload changes the signed claims and keeps the old signature.
func rewritePayload(t *testing.T, tok string, edit func(*claims)) string {
	p, s, _ := strings.Cut(tok, ".")
	raw, _ := b64.DecodeString(p)
	var c claims
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	edit(&c)
	raw, _ = json.Marshal(c)
	return b64.EncodeToString(raw) + "." + s
}

func TestConsumeRefusals(t *testing.T) {
	r := newTokenRig(t)
	_, otherKey, _ := ed25519.GenerateKey(rand.Reader)
	otherShim := r.newIssuer(t, otherKey, testMachine)
	otherMachine := r.newIssuer(t, r.key, "m_other")

	tests := []struct {
		name    string
		token   func(t *testing.T) string
		req     Request
		advance time.Duration
		want    Reason
	}{
		{"no token", func(*testing.T) string { return "" }, extractReq, 0, ReasonMissing},
		{"blank token", func(*testing.T) string { return " \n" }, extractReq, 0, ReasonMissing},
		{"garbage", func(*testing.T) string { return "let me in" }, extractReq, 0, ReasonMalformed},
		{"two garbage parts", func(*testing.T) string { return "abc.def" }, extractReq, 0, ReasonMalformed},
		{"not base64", func(*testing.T) string { return "!!!.???" }, extractReq, 0, ReasonMalformed},
		{"huge", func(*testing.T) string { return strings.Repeat("A", 10_000) + ".AA" }, extractReq, 0, ReasonMalformed},
		{"signature cut short", func(t *testing.T) string { tok := issue(t, r.issuer, extractReq); return tok[:len(tok)-4] }, extractReq, 0, ReasonMalformed},
		{"forged signature", func(t *testing.T) string { return flipSignature(t, issue(t, r.issuer, extractReq)) }, extractReq, 0, ReasonForged},
		{"payload rewritten to another route", func(t *testing.T) string {
			return rewritePayload(t, issue(t, r.issuer, extractReq), func(c *claims) { c.Route = RouteScreenshotsToCloud })
		}, cloudReq, 0, ReasonForged},
		{"payload rewritten to live longer", func(t *testing.T) string {
			return rewritePayload(t, issue(t, r.issuer, extractReq), func(c *claims) { c.ExpiresAt += 3600 })
		}, extractReq, 10 * time.Minute, ReasonForged},
		{"another shim's key", func(t *testing.T) string { return issue(t, otherShim, extractReq) }, extractReq, 0, ReasonForged},
		{"another machine id", func(t *testing.T) string { return issue(t, otherMachine, extractReq) }, extractReq, 0, ReasonOtherMachine},
		{"expired", func(t *testing.T) string { return issue(t, r.issuer, extractReq) }, extractReq, DefaultTTL + time.Second, ReasonExpired},
		{"expired at the second", func(t *testing.T) string { return issue(t, r.issuer, extractReq) }, extractReq, DefaultTTL, ReasonExpired},
		{"approved extract, asked screenshots", func(t *testing.T) string { return issue(t, r.issuer, extractReq) }, cloudReq, 0, ReasonMismatch},
		{"approved local, asked extract", func(t *testing.T) string {
			return issue(t, r.issuer, Request{ModeCopilot, RouteLocalVLM, []string{"floor", "browser"}})
		}, extractReq, 0, ReasonMismatch},
		{"another mode", func(t *testing.T) string { return issue(t, r.issuer, extractReq) }, Request{ModeDemonstration, RouteExtractThenCloud, []string{"floor", "browser"}}, 0, ReasonMismatch},
		{"more channels", func(t *testing.T) string { return issue(t, r.issuer, extractReq) }, Request{ModeCopilot, RouteExtractThenCloud, []string{"floor", "browser", "desktop_ax"}}, 0, ReasonMismatch},
		{"fewer channels", func(t *testing.T) string { return issue(t, r.issuer, extractReq) }, Request{ModeCopilot, RouteExtractThenCloud, []string{"browser"}}, 0, ReasonMismatch},
		{"other channels", func(t *testing.T) string { return issue(t, r.issuer, extractReq) }, Request{ModeCopilot, RouteExtractThenCloud, []string{"floor", "desktop_ax"}}, 0, ReasonMismatch},
		{"reused", func(t *testing.T) string {
			tok := issue(t, r.issuer, extractReq)
			if err := r.issuer.Consume(context.Background(), tok, extractReq); err != nil {
				t.Fatalf("first Consume: %v", err)
			}
			return tok
		}, extractReq, 0, ReasonReused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := r.clk.t
			tok := tt.token(t)
			r.clk.t = start.Add(tt.advance)
			defer func() { r.clk.t = start }()
			err := r.issuer.Consume(context.Background(), tok, tt.req)
			var refused *RefusedError
			if !errors.Is(err, ErrConsentRequired) || !errors.As(err, &refused) || refused.Reason != tt.want {
				t.Fatalf("Consume(%s) = %v; want ErrConsentRequired, reason %s", tt.name, err, tt.want)
			}
			checkRefusalMessage(t, err, tok)
		})
	}
}

// checkRefusalMessage: the message says what to do and never holds the
// token or either of its parts.
func checkRefusalMessage(t *testing.T, err error, tok string) {
	t.Helper()
	msg := err.Error()
	if !strings.Contains(msg, "ask") {
		t.Errorf("refusal %q does not tell the person to ask for consent", msg)
	}
	for _, part := range strings.Split(strings.TrimSpace(tok), ".") {
		if len(part) >= 8 && strings.Contains(msg, part) {
			t.Errorf("refusal %q contains part of the token", msg)
		}
	}
}

func TestConsumeHappyPath(t *testing.T) {
	r := newTokenRig(t)
	tok, exp, err := r.issuer.Issue(Request{ModeCopilot, RouteExtractThenCloud, []string{"browser", "floor", "browser"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := r.clk.t.Add(DefaultTTL); !exp.Equal(want) {
		t.Fatalf("Issue expires at %v; want %v", exp, want)
	}
	p, _, _ := strings.Cut(tok, ".")
	raw, _ := b64.DecodeString(p)
	var c claims
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("payload %s: %v", raw, err)
	}
	if !regexp.MustCompile(`^[-/_=.a-zA-Z0-9]+$`).MatchString(c.ID) || c.MachineID != testMachine || c.ExpiresAt-c.IssuedAt != 300 {
		t.Fatalf("claims = %+v; want a KV-safe id, machine %s, 300 s", c, testMachine)
	}
	r.clk.t = r.clk.t.Add(DefaultTTL - time.Second)
	// Channels in another order name the same recording.
	if err := r.issuer.Consume(context.Background(), tok, Request{ModeCopilot, RouteExtractThenCloud, []string{"floor", "browser"}}); err != nil {
		t.Fatalf("Consume of a fresh token = %v; want nil", err)
	}
	if _, err := r.s.consentBucket(t).Get(context.Background(), c.ID); err != nil {
		t.Fatalf("CONSENT marker %s: %v", c.ID, err)
	}
	other := issue(t, r.issuer, extractReq)
	if other == tok {
		t.Fatal("two tokens are identical")
	}
}

func TestRefusalLeavesTokenUnused(t *testing.T) {
	r := newTokenRig(t)
	tok := issue(t, r.issuer, extractReq)
	if err := r.issuer.Consume(context.Background(), tok, cloudReq); !errors.Is(err, ErrConsentRequired) {
		t.Fatalf("Consume for another route = %v; want ErrConsentRequired", err)
	}
	if err := r.issuer.Consume(context.Background(), tok, extractReq); err != nil {
		t.Fatalf("Consume for the approved route after a mismatch = %v; want nil", err)
	}
}

func TestConsumeConcurrently(t *testing.T) {
	r := newTokenRig(t)
	tok := issue(t, r.issuer, extractReq)
	var ok, reused atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 50 {
		wg.Go(func() {
			<-start
			err := r.issuer.Consume(context.Background(), tok, extractReq)
			var refused *RefusedError
			switch {
			case err == nil:
				ok.Add(1)
			case errors.As(err, &refused) && refused.Reason == ReasonReused:
				reused.Add(1)
			default:
				t.Errorf("Consume = %v; want nil or reused", err)
			}
		})
	}
	close(start)
	wg.Wait()
	if ok.Load() != 1 || reused.Load() != 49 {
		t.Fatalf("50 concurrent Consume: %d succeeded, %d reused; want 1 and 49", ok.Load(), reused.Load())
	}
}

func TestConsumeInvalidRequest(t *testing.T) {
	r := newTokenRig(t)
	tok := issue(t, r.issuer, extractReq)
	err := r.issuer.Consume(context.Background(), tok, Request{ModeCopilot, "teleport", []string{"floor"}})
	if !errors.Is(err, ErrInvalidRequest) || errors.Is(err, ErrConsentRequired) {
		t.Fatalf("Consume(invalid request) = %v; want ErrInvalidRequest", err)
	}
	if _, _, err := r.issuer.Issue(Request{Mode: ModeCopilot}); !errors.Is(err, ErrInvalidRequest) {
		t.Fatalf("Issue(invalid request) = %v; want ErrInvalidRequest", err)
	}
}

func TestNewIssuerConfig(t *testing.T) {
	s := startShim(t)
	kv := s.consentBucket(t)
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	tests := []struct {
		name  string
		cfg   IssuerConfig
		field string
	}{
		{"no key", IssuerConfig{MachineID: "m", Used: kv}, "Key"},
		{"no machine", IssuerConfig{Key: key, Used: kv}, "MachineID"},
		{"no bucket", IssuerConfig{Key: key, MachineID: "m"}, "Used"},
		{"ttl beyond the markers", IssuerConfig{Key: key, MachineID: "m", Used: kv, TTL: 2 * time.Hour}, "TTL"},
		{"negative ttl", IssuerConfig{Key: key, MachineID: "m", Used: kv, TTL: -time.Second}, "TTL"},
	}
	for _, tt := range tests {
		if _, err := NewIssuer(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("NewIssuer(%s) = %v; want an error naming %s", tt.name, err, tt.field)
		}
	}
}

func TestSigningKey(t *testing.T) {
	ks := store.FileKeyStore{Dir: t.TempDir()}
	k1, err := SigningKey(ks)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := SigningKey(ks)
	if err != nil || !k1.Equal(k2) {
		t.Fatalf("SigningKey a second time = %v; want the same key", err)
	}
	if err := ks.Put(SigningKeyName, []byte("short")); err != nil {
		t.Fatal(err)
	}
	if _, err := SigningKey(ks); err == nil || strings.Contains(err.Error(), "short") {
		t.Fatalf("SigningKey of a damaged key = %v; want an error that does not show the key", err)
	}
}
