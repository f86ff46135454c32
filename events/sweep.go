package events

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"
)

// SweepConsumers removes, before the daemon's own consumers start, every
// consumer it did not create that could take or hold its messages: any
// consumer on CAPTURE (a work queue: a stranger's consumer would take steps
// from the redact stage, and one with an overlapping filter keeps the
// daemon's from being created at all), and every durable elsewhere. Short
// lived readers on the other streams (the CLI's, reading a run) are left:
// they take nothing from anyone and expire when idle. A kept consumer found
// paused is resumed. Each removal is logged; a failure to remove one is
// logged and not fatal: the daemon starts, and says why a stage may fail.
// keep maps a stream to its consumers the daemon owns.
func SweepConsumers(ctx context.Context, js jetstream.JetStream, keep map[string][]string, log *slog.Logger) error {
	streams := js.ListStreams(ctx)
	for si := range streams.Info() {
		stream := si.Config.Name
		st, err := js.Stream(ctx, stream)
		if err != nil {
			log.Error("could not open a stream to check its consumers", "stream", stream, "err", err)
			continue
		}
		lister := st.ListConsumers(ctx)
		for ci := range lister.Info() {
			if owned(keep[stream], ci.Name) {
				if ci.Paused {
					log.Warn("a consumer of the daemon's was paused by someone; resuming it", "stream", stream, "consumer", ci.Name)
					if _, err := js.ResumeConsumer(ctx, stream, ci.Name); err != nil {
						log.Error("could not resume a paused consumer", "stream", stream, "consumer", ci.Name, "err", err)
					}
				}
				continue
			}
			if si.Config.Retention != jetstream.WorkQueuePolicy && ci.Config.Durable == "" {
				continue
			}
			log.Warn("removing a consumer the daemon did not create", "stream", stream, "consumer", ci.Name, "durable", ci.Config.Durable != "")
			if err := js.DeleteConsumer(ctx, stream, ci.Name); err != nil {
				log.Error("could not remove a foreign consumer", "stream", stream, "consumer", ci.Name, "err", err)
			}
		}
		if err := lister.Err(); err != nil {
			log.Error("could not list a stream's consumers", "stream", stream, "err", err)
		}
	}
	if err := streams.Err(); err != nil {
		return fmt.Errorf("sweep consumers: %w", err)
	}
	return nil
}

func owned(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
