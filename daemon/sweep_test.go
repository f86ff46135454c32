package daemon

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/recorder"
)

// TestStartRemovesForeignConsumers: a consumer the daemon did not create on
// its work queue, which once kept it from starting and took its steps, is
// removed at start with a log line, and its own consumer paused by someone
// is resumed.
func TestStartRemovesForeignConsumers(t *testing.T) {
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d := startDaemon(t, home)
	js := d.JetStream()
	// What the CLI user could do before its rights were narrowed: take
	// the work queue over with a consumer of its own, and leave a durable
	// on another stream.
	if err := js.DeleteConsumer(ctx, events.StreamCapture, recorder.RedactConsumer); err != nil {
		t.Fatal(err)
	}
	for stream, name := range map[string]string{events.StreamCapture: "thief", events.StreamReplay: "lurker"} {
		if _, err := js.CreateConsumer(ctx, stream, jetstream.ConsumerConfig{Durable: name, AckPolicy: jetstream.AckExplicitPolicy}); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()

	var logs syncbuf.Buffer
	d2, err := Start(ctx, Options{Home: home, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatalf("start with a foreign consumer on the work queue: %v", err)
	}
	t.Cleanup(d2.Close)
	js = d2.JetStream()
	for stream, name := range map[string]string{events.StreamCapture: "thief", events.StreamReplay: "lurker"} {
		if _, err := js.Consumer(ctx, stream, name); err == nil {
			t.Errorf("consumer %s on %s survived the start", name, stream)
		}
		if !strings.Contains(logs.String(), "consumer="+name) {
			t.Errorf("removing %s was not logged:\n%s", name, logs.String())
		}
	}
	if _, err := js.Consumer(ctx, events.StreamCapture, recorder.RedactConsumer); err != nil {
		t.Fatalf("the redact consumer after start: %v", err)
	}

	if _, err := js.PauseConsumer(ctx, events.StreamCapture, recorder.RedactConsumer, time.Now().Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	d2.Close()
	d3 := startDaemon(t, home)
	c, err := d3.JetStream().Consumer(ctx, events.StreamCapture, recorder.RedactConsumer)
	if err != nil {
		t.Fatal(err)
	}
	if c.CachedInfo().Paused {
		t.Error("the redact consumer is still paused after a restart; want resumed")
	}
}
