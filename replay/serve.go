package replay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
)

// Broken is the Outcome.Error prefix of a step the executor could not run
// at all (its browser is gone): the run cannot go on.
const Broken = "executor broken: "

// consume delivers the new events of kind for run runID to fn, one at a
// time, from now on, until the returned stop is called.
func consume(ctx context.Context, js jetstream.JetStream, runID, kind string, fn func(row int, data []byte)) (stop func(), err error) {
	cons, err := js.OrderedConsumer(ctx, events.StreamReplay, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{events.ReplayFilter(runID, kind)},
		DeliverPolicy:  jetstream.DeliverNewPolicy,
		// Gone soon after the run stops following (the server's default
		// keeps it five minutes, and a stream takes 1000).
		InactiveThreshold: 30 * time.Second,
	})
	if err != nil {
		return nil, fmt.Errorf("follow %s events of run %s: %w", kind, runID, err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		if _, row, _, ok := parseSubject(m.Subject()); ok {
			fn(row, m.Data())
		}
	})
	if err != nil {
		return nil, fmt.Errorf("follow %s events of run %s: %w", kind, runID, err)
	}
	return func() {
		cc.Stop()
		events.Forget(ctx, js, events.StreamReplay, cons)
	}, nil
}

// Serve makes exec a consumer of run plan.RunID's step commands: for each
// it runs the step and writes the outcome. It returns at once; stop ends
// it. One command runs at a time, in the order written.
func Serve(ctx context.Context, js jetstream.JetStream, plan *Plan, exec Executor, logger *slog.Logger) (stop func(), err error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	out := log{pub: events.NewPublisher(js), runID: plan.RunID}
	return consume(ctx, js, plan.RunID, EvCommand, func(row int, data []byte) {
		var c Command
		if err := events.Decode(data, &c); err != nil {
			logger.Error("malformed step command skipped", "run_id", plan.RunID, "row", row, "err", err)
			return
		}
		done := StepDone{Row: c.Row, Index: c.Index, Session: c.Session, Seq: c.Seq}
		st, err := plan.step(c.Row, c.Index, c.DryRun)
		if err == nil {
			done.Outcome, err = exec.Do(ctx, st)
		}
		var fault rowFault
		switch {
		case errors.As(err, &fault):
			done.Outcome = Outcome{Error: fault.Error()}
		case err != nil:
			done.Outcome = Outcome{Error: Broken + err.Error()}
		}
		if done.Outcome.PageMessage != "" {
			plan.messages.Store(messageKey(c.Session, c.Seq), done.Outcome.PageMessage)
		}
		id := fmt.Sprintf("%d:%d:%d:step", c.Row, c.Session, c.Seq)
		if err := out.write(ctx, c.Row, EvStep, id, &done); err != nil {
			logger.Error("step outcome not written", "run_id", plan.RunID, "row", c.Row, "err", err)
		}
	})
}

// messageKey names a step command's page message in Plan.messages.
func messageKey(session, seq int) string { return fmt.Sprintf("%d:%d", session, seq) }
