package consent

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
)

const testMachine = "m_test"

// shim is a real embedded server with the shim's stores, and the daemon's
// in-process connection to it.
type shim struct {
	srv *embedded.Server
	nc  *nats.Conn
	js  jetstream.JetStream
}

func startShim(t testing.TB) *shim {
	t.Helper()
	srv, nc, js := natstest.Start(t, testMachine)
	return &shim{srv: srv, nc: nc, js: js}
}

func (s *shim) consentBucket(t testing.TB) jetstream.KeyValue {
	t.Helper()
	kv, err := s.js.KeyValue(context.Background(), events.BucketConsent)
	if err != nil {
		t.Fatalf("CONSENT bucket: %v", err)
	}
	return kv
}

func (s *shim) choices(t *testing.T) *KVChoices {
	t.Helper()
	c, err := OpenChoices(context.Background(), s.js)
	if err != nil {
		t.Fatalf("OpenChoices: %v", err)
	}
	return c
}

// cli connects as the local CLI does: TCP on 127.0.0.1, user cli.
func (s *shim) cli(t *testing.T) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(s.srv.ClientURL(), embedded.CLIOptions(s.srv.Password(embedded.RoleCLI))...)
	if err != nil {
		t.Fatalf("connect as cli: %v", err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// clock is an injectable clock a test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// benchIssuer is an Issuer on a real shim, for benchmarks.
func benchIssuer(b *testing.B) *Issuer {
	s := startShim(b)
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	is, err := NewIssuer(IssuerConfig{Key: key, MachineID: testMachine, Used: s.consentBucket(b)})
	if err != nil {
		b.Fatal(err)
	}
	return is
}
