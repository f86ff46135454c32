package chunked_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/internal/chunked"
	"github.com/reprise-dev/reprise/internal/natstest"
)

// TestRepliesOfAnySize: a reply under the max payload is one plain message;
// one over it (a recording of thousands of steps) arrives whole, in parts,
// to a CLI over TCP with its own inbox.
func TestRepliesOfAnySize(t *testing.T) {
	s, daemon, _ := natstest.Start(t, "m_test")
	big := make([]byte, 5<<20+123)
	_, _ = rand.Read(big)
	replies := map[string][]byte{"small": []byte("ok"), "big": big, "empty": {}}
	sub, err := daemon.Subscribe("local.test.>", func(m *nats.Msg) {
		if err := chunked.Respond(daemon, m, replies[strings.TrimPrefix(m.Subject, "local.test.")]); err != nil {
			t.Errorf("respond: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	// The server knows of the responder before the first request: on a
	// busy machine a request could otherwise find no one.
	if err := daemon.Flush(); err != nil {
		t.Fatal(err)
	}
	cli, err := nats.Connect(s.ClientURL(), embedded.CLIOptions(s.Password(embedded.RoleCLI))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for name, want := range replies {
		m, err := chunked.Request(ctx, cli, "local.test."+name, nil)
		if err != nil {
			t.Fatalf("%s reply: %v", name, err)
		}
		if !bytes.Equal(m.Data, want) {
			t.Fatalf("%s reply: %d bytes; want %d bytes", name, len(m.Data), len(want))
		}
		if (name == "big") != (m.Header.Get(chunked.Header) != "") {
			t.Errorf("%s reply header %q; want parts only for the big one", name, m.Header.Get(chunked.Header))
		}
	}
	if _, err := chunked.Request(ctx, cli, "local.nobody", nil); !errors.Is(err, nats.ErrNoResponders) {
		t.Errorf("request nobody answers: %v; want no responders", err)
	}
}

// TestMalformedParts: parts out of order or with a bad header are refused,
// not joined into a wrong reply.
func TestMalformedParts(t *testing.T) {
	_, nc, _ := natstest.Start(t, "m_test")
	for _, parts := range [][]string{{"2/2"}, {"1/2", "1/2"}, {"1/x"}, {"0/1"}, {"1/2", "3/2"}} {
		sub, err := nc.Subscribe("local.bad", func(m *nats.Msg) {
			for _, p := range parts {
				_ = nc.PublishMsg(&nats.Msg{Subject: m.Reply, Data: []byte("x"), Header: nats.Header{chunked.Header: []string{p}}})
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if m, err := chunked.Request(ctx, nc, "local.bad", nil); err == nil {
			t.Errorf("parts %v joined into %q; want an error", parts, m.Data)
		}
		cancel()
		_ = sub.Unsubscribe()
	}
}
