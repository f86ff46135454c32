package consent

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/store"
)

// SigningKeyName is the key store item that holds the consent signing key:
// its own trust boundary, apart from the audit and data keys.
const SigningKeyName = "consent-signing"

// DefaultTTL is how long a token stays usable after it is issued.
const DefaultTTL = 5 * time.Minute

// maxTokenLen bounds what Consume decodes; a real token is about 400 bytes.
const maxTokenLen = 4096

// signingContext is prepended to what is signed, so a signature made for a
// consent token can never be mistaken for one over anything else.
const signingContext = "reprise-consent-v1."

// SigningKey returns the shim's consent signing key from ks, generating and
// storing a new one on first use.
func SigningKey(ks store.KeyStore) (ed25519.PrivateKey, error) {
	seed, err := store.LoadOrCreate(ks, SigningKeyName, func() ([]byte, error) {
		seed := make([]byte, ed25519.SeedSize)
		_, err := rand.Read(seed)
		return seed, err
	})
	if err != nil {
		return nil, fmt.Errorf("consent signing key: %w", err)
	}
	if len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("consent signing key: stored key is %d bytes, want %d; delete the %q key to make a new one (tokens already issued stop working)",
			len(seed), ed25519.SeedSize, SigningKeyName)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// IssuerConfig makes an Issuer.
type IssuerConfig struct {
	// Key signs tokens; see SigningKey. Required.
	Key ed25519.PrivateKey
	// MachineID is this shim's id; a token names it and only this shim
	// accepts it. Required.
	MachineID string
	// TTL is how long a token is usable; 0 means DefaultTTL. It may not
	// exceed events.ConsentTTL, how long the CONSENT bucket keeps a marker.
	TTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Used is the CONSENT bucket, where Consume marks a token used. Required.
	Used jetstream.KeyValue
}

// Issuer issues and consumes consent tokens. It is safe for concurrent use.
type Issuer struct {
	key       ed25519.PrivateKey
	pub       ed25519.PublicKey
	machineID string
	ttl       time.Duration
	now       func() time.Time
	used      jetstream.KeyValue
}

// NewIssuer checks cfg and returns an Issuer.
func NewIssuer(cfg IssuerConfig) (*Issuer, error) {
	if len(cfg.Key) != ed25519.PrivateKeySize {
		return nil, errors.New("consent issuer: Key: want an ed25519 private key")
	}
	if cfg.MachineID == "" {
		return nil, errors.New("consent issuer: MachineID is required")
	}
	if cfg.Used == nil {
		return nil, errors.New("consent issuer: Used (the CONSENT bucket) is required")
	}
	if cfg.TTL == 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.TTL < 0 || cfg.TTL > events.ConsentTTL {
		return nil, fmt.Errorf("consent issuer: TTL %s: want more than 0 and at most %s, how long a used token is remembered", cfg.TTL, events.ConsentTTL)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Issuer{
		key: cfg.Key, pub: cfg.Key.Public().(ed25519.PublicKey), machineID: cfg.MachineID,
		ttl: cfg.TTL, now: cfg.Now, used: cfg.Used,
	}, nil
}

// claims is a token's signed payload.
type claims struct {
	ID        string   `json:"id"`
	MachineID string   `json:"machine_id"`
	Mode      string   `json:"mode"`
	Route     string   `json:"route"`
	Channels  []string `json:"channels"`
	IssuedAt  int64    `json:"iat"`
	ExpiresAt int64    `json:"exp"`
}

// b64 is strict: a token has one spelling, not several that decode alike.
var b64 = base64.RawURLEncoding.Strict()

// Issue returns a token for req, which a person has just approved, and when
// it stops being usable. Call it only after an approval.
func (is *Issuer) Issue(req Request) (token string, expiresAt time.Time, err error) {
	req.Normalize()
	if err := req.Validate(); err != nil {
		return "", time.Time{}, err
	}
	id, err := newTokenID()
	if err != nil {
		return "", time.Time{}, err
	}
	now := is.now()
	c := claims{
		ID: id, MachineID: is.machineID, Mode: req.Mode, Route: req.InterpretationRoute, Channels: req.Channels,
		IssuedAt: now.Unix(), ExpiresAt: now.Add(is.ttl).Unix(),
	}
	payload, err := json.Marshal(c)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("issue consent token: %w", err)
	}
	p := b64.EncodeToString(payload)
	sig := ed25519.Sign(is.key, []byte(signingContext+p))
	return p + "." + b64.EncodeToString(sig), time.Unix(c.ExpiresAt, 0), nil
}

// newTokenID returns a random id that is also a valid KV key.
func newTokenID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("consent token id: %w", err)
	}
	return "ct_" + hex.EncodeToString(b), nil
}

// Consume checks that token was issued by this shim for exactly req and is
// still fresh, then marks it used, atomically: of any number of concurrent
// calls with one token, at most one succeeds. Every refusal is a
// *RefusedError, which errors.Is ErrConsentRequired. A request that is not
// valid gives an error wrapping ErrInvalidRequest; a failure to reach the
// CONSENT bucket gives neither, and the token stays unused.
func (is *Issuer) Consume(ctx context.Context, token string, req Request) error {
	req.Normalize()
	if err := req.Validate(); err != nil {
		return err
	}
	c, err := is.verify(token)
	if err != nil {
		return err
	}
	now := is.now()
	if now.Unix() >= c.ExpiresAt {
		return refuse(ReasonExpired, fmt.Sprintf("the consent token expired %s ago (tokens last %s); ask the person on this machine again and start the recording within %s",
			now.Sub(time.Unix(c.ExpiresAt, 0)).Round(time.Second), is.ttl, is.ttl))
	}
	approved := Request{Mode: c.Mode, InterpretationRoute: c.Route, Channels: c.Channels}
	approved.Normalize()
	if !approved.equal(req) {
		return refuse(ReasonMismatch, mismatch(approved, req))
	}
	marker, _ := json.Marshal(struct {
		Kind   string `json:"kind"`
		UsedAt int64  `json:"used_at"`
	}{req.Kind(), now.Unix()})
	if _, err := is.used.Create(ctx, c.ID, marker); err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			return refuse(ReasonReused, "this consent token was already used to start a recording, and each token starts one; ask the person on this machine again")
		}
		return fmt.Errorf("mark consent token used: %w", err)
	}
	return nil
}

// verify decodes token and checks its signature and machine.
func (is *Issuer) verify(token string) (claims, error) {
	var c claims
	if strings.TrimSpace(token) == "" {
		return c, refuse(ReasonMissing, "no consent token was given; ask for consent first (REQUEST_RECORDING_CONSENT, approved by the person on this machine) and pass the token it returns")
	}
	malformed := refuse(ReasonMalformed, "the consent token is not one this shim issues (it does not decode); pass the consent_token exactly as REQUEST_RECORDING_CONSENT returned it, or ask for consent again")
	if len(token) > maxTokenLen {
		return c, malformed
	}
	p, s, ok := strings.Cut(token, ".")
	if !ok {
		return c, malformed
	}
	payload, err1 := b64.DecodeString(p)
	sig, err2 := b64.DecodeString(s)
	if err1 != nil || err2 != nil || len(sig) != ed25519.SignatureSize {
		return c, malformed
	}
	if !ed25519.Verify(is.pub, []byte(signingContext+p), sig) {
		return c, refuse(ReasonForged, "the consent token's signature does not verify: it was altered, or issued by another shim; ask the person on this machine for consent again")
	}
	if err := json.Unmarshal(payload, &c); err != nil || c.ID == "" || c.ExpiresAt == 0 {
		// Only this shim's key signs payloads, so this is a bug, not an attack.
		return c, malformed
	}
	if c.MachineID != is.machineID {
		return c, refuse(ReasonOtherMachine, "the consent token was issued for another machine; consent is given on the machine that records, so ask the person on this one")
	}
	return c, nil
}

// mismatch says which part of a request the approval did not cover.
func mismatch(approved, req Request) string {
	var what string
	switch {
	case approved.InterpretationRoute != req.InterpretationRoute:
		what = fmt.Sprintf("interpretation route %s, not %s", approved.InterpretationRoute, req.InterpretationRoute)
	case approved.Mode != req.Mode:
		what = fmt.Sprintf("mode %s, not %s", approved.Mode, req.Mode)
	default:
		what = fmt.Sprintf("channels %s, not %s", strings.Join(approved.Channels, ", "), strings.Join(req.Channels, ", "))
	}
	return "the person approved a recording with " + what + "; an approval covers exactly what was asked, so ask again for this recording"
}
