package replay

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
)

// Events of a run, on run.<run_id>.row.<n>.<event> (SPEC section 3). Run-wide
// events use row 0. No event carries a field value: rows are named by
// number, and the dedupe key by an HMAC of its values.
const (
	EvPlanned   = "planned"   // row 0: what the run is (and each resume of it)
	EvStarted   = "started"   // a row's dedupe key, written before its first destructive step
	EvCommand   = "command"   // a step for the executor to run
	EvStep      = "step"      // a step's outcome, from the executor
	EvCommitted = "committed" // the row's destructive step ran and read back
	EvFailed    = "failed"    // the row stopped at a step
	EvUnknown   = "unknown"   // the row may have been filed: the person checks
	EvDryRun    = "dryrun"    // row 0: a dry run of this skill version passed and was confirmed
	EvResult    = "result"    // a row's line of the report, from a hub's worker (RowResult, no page message)
)

// Planned is a run's plan, written when it starts and again at each resume.
type Planned struct {
	RunID       string  `msgpack:"run_id"`
	SkillID     string  `msgpack:"skill_id"`
	SkillDigest string  `msgpack:"skill_digest"` // sha256 of the skill document
	Rows        int     `msgpack:"rows"`
	CSV         string  `msgpack:"csv"` // the rows' fingerprint
	DryRun      bool    `msgpack:"dry_run"`
	Session     int     `msgpack:"session"` // 1 for the first run, +1 each resume
	At          float64 `msgpack:"at"`
}

// RowMark is started, committed and unknown: a row and its dedupe key.
type RowMark struct {
	Row     int    `msgpack:"row"`
	Key     string `msgpack:"key"`
	SkillID string `msgpack:"skill_id"`
	// Verified says a committed mark came from the skill's verification
	// after a crash, not from this row's own read-back.
	Verified bool   `msgpack:"verified,omitempty"`
	Reason   string `msgpack:"reason,omitempty"`
}

// Command asks the executor for one step of one row.
type Command struct {
	Row     int  `msgpack:"row"`
	Index   int  `msgpack:"index"`
	Session int  `msgpack:"session"`
	DryRun  bool `msgpack:"dry_run"`
	// Seq counts the session's commands: a row filled twice in a session
	// (checked, then submitted) has distinct commands and outcomes.
	Seq int `msgpack:"seq"`
	// Through, when past Index, makes the command a batch: steps Index to
	// Through, each Batchable, run in one go. Each gets its own outcome,
	// up to the first that failed.
	Through int `msgpack:"through,omitempty"`
	// Worker is the executor that runs it, of a run filing rows in
	// parallel: 0 for the first.
	Worker int `msgpack:"worker,omitempty"`
}

// last is the index of the command's last step.
func (c Command) last() int { return max(c.Index, c.Through) }

// StepDone is a step's outcome.
type StepDone struct {
	Row     int     `msgpack:"row"`
	Index   int     `msgpack:"index"`
	Session int     `msgpack:"session"`
	Seq     int     `msgpack:"seq"`
	Worker  int     `msgpack:"worker,omitempty"`
	Outcome Outcome `msgpack:"outcome"`
}

// RowFailed says where and why a row stopped. Before says it stopped
// before its first destructive step: nothing was filed, and a resume may
// run it again.
type RowFailed struct {
	Row    int    `msgpack:"row"`
	Index  int    `msgpack:"index"`
	Action string `msgpack:"action"`
	Reason string `msgpack:"reason"`
	Before bool   `msgpack:"before"`
}

// DryRunPassed marks a skill version whose dry run the person confirmed.
type DryRunPassed struct {
	SkillID     string `msgpack:"skill_id"`
	SkillDigest string `msgpack:"skill_digest"`
}

// log writes a run's events, each deduplicated by its msg id.
type log struct {
	pub   *events.Publisher
	runID string
	// synced writes every event acked, with retries: a hub's worker, whose
	// writes may meet a cluster electing a new leader.
	synced bool
	// unacked are the events written without waiting, for flush.
	unacked *unacked
}

type unacked struct {
	mu   sync.Mutex
	acks []jetstream.PubAckFuture
}

func newLog(js jetstream.JetStream, runID string) log {
	return log{pub: events.NewPublisher(js), runID: runID, unacked: &unacked{}}
}

func (l log) write(ctx context.Context, row int, event, id string, v any) error {
	subject := events.ReplaySubject(l.runID, row, event)
	giveUp := time.Now().Add(time.Minute)
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		_, err := l.pub.Publish(ctx, subject, l.runID+":"+id, v)
		if err == nil {
			return nil
		}
		// The msg id makes a retry of a write that did land a no-op.
		if !l.synced || !Transient(err) || ctx.Err() != nil || time.Now().After(giveUp) {
			return fmt.Errorf("write %s of row %d: %w", event, row, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("write %s of row %d: %w", event, row, err)
		case <-time.After(wait):
		}
	}
}

// Transient says err is one a NATS cluster gives while it moves a stream's
// leader or a client reconnects to another server: worth retrying.
func Transient(err error) bool {
	var api *jetstream.APIError
	return errors.Is(err, nats.ErrTimeout) || errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrNoStreamResponse) ||
		errors.Is(err, nats.ErrConnectionReconnecting) || errors.Is(err, context.DeadlineExceeded) ||
		errors.As(err, &api) && api.Code == 503
}

// publishAsync writes an event without waiting for its ack, and returns
// the ack to come.
func (l log) publishAsync(row int, event, id string, v any) (jetstream.PubAckFuture, error) {
	ack, err := l.pub.PublishAsync(events.ReplaySubject(l.runID, row, event), l.runID+":"+id, v)
	if err != nil {
		return nil, fmt.Errorf("write %s of row %d: %w", event, row, err)
	}
	u := l.unacked
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.acks) >= 256 {
		// Keep only those still unanswered (and any refused, for flush).
		u.acks = slices.DeleteFunc(u.acks, func(f jetstream.PubAckFuture) bool {
			select {
			case <-f.Ok():
				return true
			default:
				return false
			}
		})
	}
	u.acks = append(u.acks, ack)
	return ack, nil
}

// writeAsync is write without waiting for the ack: for an event whose loss
// in a crash leaves a state a resume settles (a commit mark lost leaves the
// row started: verified or reported unknown, never filed again). flush
// reports a write the store refused.
func (l log) writeAsync(row int, event, id string, v any) error {
	if l.synced {
		return l.write(context.Background(), row, event, id, v)
	}
	_, err := l.publishAsync(row, event, id, v)
	return err
}

// flush waits for every event written without waiting, and returns the
// first the store refused.
func (l log) flush(ctx context.Context) error {
	u := l.unacked
	u.mu.Lock()
	acks := u.acks
	u.acks = nil
	u.mu.Unlock()
	var first error
	for _, f := range acks {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			if first == nil {
				first = fmt.Errorf("write %s: %w", f.Msg().Subject, err)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return first
}

// parseSubject splits run.<id>.row.<n>.<event>.
func parseSubject(subject string) (runID string, row int, event string, ok bool) {
	parts := strings.Split(subject, ".")
	if len(parts) != 5 || parts[0] != "run" || parts[2] != "row" {
		return "", 0, "", false
	}
	if _, err := fmt.Sscan(parts[3], &row); err != nil {
		return "", 0, "", false
	}
	return parts[1], row, parts[4], true
}

// readRun hands fn every event of runs matching runID ("*" for all), of
// the given kinds, oldest first.
func readRun(ctx context.Context, js jetstream.JetStream, runID string, kinds []string, fn func(runID string, row int, event string, data []byte) error) error {
	subjects := make([]string, len(kinds))
	for i, k := range kinds {
		subjects[i] = events.ReplayFilter(runID, k)
	}
	return events.ReadAll(ctx, js, events.StreamReplay, subjects, func(m jetstream.Msg) error {
		id, row, ev, ok := parseSubject(m.Subject())
		if !ok {
			return nil
		}
		return fn(id, row, ev, m.Data())
	})
}

// HandRunPrefix names the runs that stand for rows a person filed by hand
// while demonstrating a skill: hand_<recording id>.
const HandRunPrefix = "hand_"

// MarkFiledByHand records that a recording filed a row of skillID by hand,
// under its dedupe key: no run files that row again unless --again. The
// mark carries the key, never a value; recording it twice is harmless.
func MarkFiledByHand(ctx context.Context, js jetstream.JetStream, skillID, recordingID string, row int, key string) error {
	l := newLog(js, HandRunPrefix+recordingID)
	mark := RowMark{Row: row, Key: key, SkillID: skillID, Reason: "filed by hand in recording " + recordingID}
	return l.write(ctx, row, EvCommitted, fmt.Sprintf("%d:committed:%s:%s", row, skillID, key), &mark)
}
