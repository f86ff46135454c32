// Package natstest starts the real embedded server for tests, with the
// shim's streams and buckets, and a connection as the daemon.
package natstest

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
)

// Start runs an embedded server on a temp dir for machineID, creates the
// stores of SPEC section 3, and connects in-process as the daemon. All of it
// is closed when the test ends.
func Start(tb testing.TB, machineID string) (*embedded.Server, *nats.Conn, jetstream.JetStream) {
	tb.Helper()
	s, err := embedded.Start(embedded.Config{StoreDir: tb.TempDir(), MachineID: machineID})
	if err != nil {
		tb.Fatalf("embedded.Start: %v", err)
	}
	tb.Cleanup(s.Close)
	nc, err := s.ConnectInProcess(tb.Name())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := events.EnsureStores(ctx, js); err != nil {
		tb.Fatalf("EnsureStores: %v", err)
	}
	return s, nc, js
}
