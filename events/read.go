package events

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ReadAll hands fn every message of stream on subjects, oldest first, as
// they are now: a fold of the log. It stops at fn's first error.
func ReadAll(ctx context.Context, js jetstream.JetStream, stream string, subjects []string, fn func(jetstream.Msg) error) error {
	cons, err := js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{FilterSubjects: subjects})
	if err != nil {
		return err
	}
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
			return fmt.Errorf("%d events expected but none arrived", left)
		}
		left -= uint64(got)
	}
	return nil
}
