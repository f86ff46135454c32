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
	return ServeWorker(ctx, js, plan, 0, exec, logger)
}

// ServeWorker is Serve for worker n of a run filing rows in parallel: exec
// runs the commands for worker n (Options.Others[n-1]) and no other.
func ServeWorker(ctx context.Context, js jetstream.JetStream, plan *Plan, n int, exec Executor, logger *slog.Logger) (stop func(), err error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	out := newLog(js, plan.RunID)
	return consume(ctx, js, plan.RunID, EvCommand, func(row int, data []byte) {
		var c Command
		if err := events.Decode(data, &c); err != nil {
			logger.Error("malformed step command skipped", "run_id", plan.RunID, "row", row, "err", err)
			return
		}
		if c.Worker != n {
			return
		}
		for _, done := range runCommand(ctx, plan, exec, c) {
			if o := done.Outcome; o.PageMessage != "" || len(o.Files) > 0 || o.Output != "" {
				plan.messages.Store(stepKey(c.Session, c.Seq, done.Index), pageSaid{o.PageMessage, o.Files, o.Output})
			}
			id := fmt.Sprintf("%d:%d:%d:%d:step", c.Row, c.Session, c.Seq, done.Index)
			if err := out.write(ctx, c.Row, EvStep, id, &done); err != nil {
				logger.Error("step outcome not written", "run_id", plan.RunID, "row", c.Row, "err", err)
			}
		}
	})
}

// runCommand runs command c's steps on exec and returns their outcomes: one per
// step, up to the first that failed, and never none.
func runCommand(ctx context.Context, plan *Plan, exec Executor, c Command) []StepDone {
	var steps []Step
	var fault error
	for i := c.Index; i <= c.last(); i++ {
		st, err := plan.step(c.Row, i, c.DryRun)
		if err != nil {
			fault = err
			break
		}
		if c.last() > c.Index && !Batchable(st.Step) {
			fault = fmt.Errorf("step %d of row %d cannot run in a batch", i+1, c.Row)
			break
		}
		steps = append(steps, st)
	}
	var outs []Outcome
	var err error
	switch b, ok := exec.(Batcher); {
	case len(steps) > 1 && ok:
		outs, err = b.DoBatch(ctx, steps)
	default:
		outs, err = DoEach(ctx, exec, steps)
	}
	done := make([]StepDone, 0, len(outs)+1)
	for i, o := range outs {
		done = append(done, StepDone{Row: c.Row, Index: c.Index + i, Session: c.Session, Seq: c.Seq, Worker: c.Worker, Outcome: o})
	}
	if n := len(done); n > 0 && !done[n-1].Outcome.OK {
		return done
	}
	// The step after the last outcome, if any is left, tells why the
	// command stopped there.
	next := StepDone{Row: c.Row, Index: c.Index + len(done), Session: c.Session, Seq: c.Seq, Worker: c.Worker}
	var rf rowFault
	switch {
	case err != nil:
		next.Outcome = Outcome{Error: Broken + err.Error()}
	case fault != nil && errors.As(fault, &rf):
		next.Outcome = Outcome{Error: rf.Error()}
	case fault != nil:
		next.Outcome = Outcome{Error: Broken + fault.Error()}
	case next.Index <= c.last():
		next.Outcome = Outcome{Error: Broken + "the executor stopped before the command's last step"}
	default:
		return done
	}
	return append(done, next)
}

// pageSaid is what a step's Outcome carries that never goes to the log.
type pageSaid struct {
	message string
	files   []string
	output  string
}

// stepKey names a step's pageSaid in Plan.messages.
func stepKey(session, seq, index int) string { return fmt.Sprintf("%d:%d:%d", session, seq, index) }
