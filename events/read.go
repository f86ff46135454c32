package events

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrUnreadable is wrapped when the stream says it holds messages it then
// does not deliver: a block damaged on disk.
var ErrUnreadable = errors.New("the store holds messages it cannot deliver")

// readerIdle is how long the server keeps a ReadAll consumer unused.
const readerIdle = 10 * time.Second

// readerResets is how many times a read makes its consumer again before it
// fails: 1 s, 2 s, 4 s, 8 s apart, each try given up to 10 s.
const readerResets = 5

// ReadAll hands fn every message of stream on subjects, oldest first, as
// they are now: a fold of the log. It stops at fn's first error.
func ReadAll(ctx context.Context, js jetstream.JetStream, stream string, subjects []string, fn func(jetstream.Msg) error) error {
	// The server keeps an ordered consumer five minutes after its last use
	// by default, and a stream takes 1000 (nats-server 2.15): a daemon
	// folding recordings often ran out within minutes. The reader's
	// consumer is deleted when it is done, and goes on its own soon after
	// its last fetch if that fails.
	//
	// Each fetch of an ordered consumer makes its consumer again, which
	// the client tries forever by default, deaf to ctx: a stream gone, or
	// a hub whose node died, then hangs the read. A few tries span a
	// leader election; then the read fails, and its caller reads again.
	cons, err := js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{FilterSubjects: subjects, InactiveThreshold: readerIdle, MaxResetAttempts: readerResets})
	if err != nil {
		return err
	}
	defer Forget(ctx, js, stream, cons)
	info, err := cons.Info(ctx)
	if err != nil {
		return err
	}
	for left := info.NumPending; left > 0; {
		batch, err := cons.Fetch(int(min(left, 1000)), jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			return err
		}
		got := 0
		for m := range batch.Messages() {
			got++
			if err := fn(m); err != nil {
				return err
			}
		}
		if err := batch.Error(); err != nil {
			return err
		}
		if got == 0 {
			return fmt.Errorf("%w: %d expected, none arrived", ErrUnreadable, left)
		}
		left -= uint64(got)
	}
	return nil
}

// Forget deletes a reader's consumer now rather than when the server's
// inactivity threshold reaps it: a stream takes 1000 consumers. It waits a
// second at most and ignores failure (the threshold still applies).
func Forget(ctx context.Context, js jetstream.JetStream, stream string, c jetstream.Consumer) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_ = js.DeleteConsumer(dctx, stream, c.CachedInfo().Name)
}
