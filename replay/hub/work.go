package hub

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// Worker takes rows from a hub's queue and files them, one row at a time
// on each of its executors (a browser's tabs).
type Worker struct {
	JS  jetstream.JetStream
	Key *Key
	// Name tells this worker's claims and marks from another's: a machine
	// and process, never a secret.
	Name      string
	Executors []replay.Executor
	Logger    *slog.Logger

	skills sync.Map // run id -> *skills.Skill, opened once
}

// Run takes and files rows until ctx ends or an executor breaks (its
// browser is gone): the row it held goes back to the queue for another.
func (w *Worker) Run(ctx context.Context) error {
	if w.Logger == nil {
		w.Logger = slog.New(slog.DiscardHandler)
	}
	if err := retry(ctx, func() error { return Ensure(ctx, w.JS) }); err != nil {
		return err
	}
	var cons jetstream.Consumer
	if err := retry(ctx, func() (err error) { cons, err = w.JS.Consumer(ctx, StreamRows, Consumer); return err }); err != nil {
		return fmt.Errorf("the hub's row queue: %w", err)
	}
	errs := make(chan error, len(w.Executors))
	for slot, exec := range w.Executors {
		go func() { errs <- w.take(ctx, cons, slot, exec) }()
	}
	var first error
	for range w.Executors {
		if err := <-errs; err != nil && first == nil && ctx.Err() == nil {
			first = err
		}
	}
	return first
}

// take is one executor's loop: fetch a row, file it, again.
func (w *Worker) take(ctx context.Context, cons jetstream.Consumer, slot int, exec replay.Executor) error {
	for ctx.Err() == nil {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			w.Logger.Warn("hub: no rows fetched", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
			continue
		}
		for m := range batch.Messages() {
			if err := w.file(ctx, m, slot, exec); err != nil {
				return err
			}
		}
	}
	return nil
}

// claimKey names a row's record in the claims bucket: the skill and the
// row's dedupe key, and the run when it files records again (--again),
// hashed to what a KV key may hold.
func claimKey(it Item) string {
	h := sha256.New()
	for _, s := range []string{it.SkillID, it.Key} {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	if it.Again {
		fmt.Fprintf(h, "again:%s", it.Run)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// claim is what the claims bucket holds for a record being filed.
type claim struct {
	Run    string `json:"run"`
	Row    int    `json:"row"`
	Holder string `json:"holder"`
	At     int64  `json:"at"` // unix ms of the holder's last sign of life
}

// file files one row taken from the queue; its error is for an executor
// that broke.
func (w *Worker) file(ctx context.Context, m jetstream.Msg, slot int, exec replay.Executor) error {
	var it Item
	if err := events.Decode(m.Data(), &it); err != nil {
		w.Logger.Error("hub: a malformed row on the queue, dropped", "err", err)
		_ = m.Term()
		return nil
	}
	log := w.Logger.With("run_id", it.Run, "row", it.Row)
	meta, err := m.Metadata()
	if err != nil {
		return err
	}
	holder := fmt.Sprintf("%s/%d/%d", w.Name, slot, meta.NumDelivered)
	plan, err := w.plan(ctx, it)
	if err != nil {
		// Another worker may hold the right key: the row goes back.
		log.Error("hub: the row cannot be opened here", "err", err)
		_ = m.NakWithDelay(Lease)
		return nil
	}
	var (
		kv  jetstream.KeyValue
		key string
		rev uint64
	)
	if !it.DryRun {
		kv, err = w.JS.KeyValue(ctx, BucketClaims)
		if err != nil {
			_ = m.NakWithDelay(time.Second)
			return nil
		}
		key = claimKey(it)
		var other *claim
		rev, other, err = w.claim(ctx, kv, key, claim{Run: it.Run, Row: it.Row, Holder: holder})
		switch {
		case err != nil:
			log.Warn("hub: row not claimed; back to the queue", "err", err)
			_ = m.NakWithDelay(Lease / 3)
			return nil
		case other != nil && (other.Run != it.Run || other.Row != it.Row):
			rr := replay.RowResult{N: it.Row, Outcome: replay.OutcomeSkipped, Step: -1,
				Reason: fmt.Sprintf("the same record is claimed on the hub by run %s row %d (--again files it again)", other.Run, other.Row)}
			return w.finish(ctx, m, it, holder, rr)
		case other != nil:
			_ = m.NakWithDelay(Lease / 3) // its holder is alive: it files it
			return nil
		}
	}
	alive, stop := context.WithCancel(ctx)
	var beats sync.WaitGroup
	beats.Go(func() {
		for {
			select {
			case <-alive.Done():
				return
			case <-time.After(Lease / 3):
			}
			_ = m.InProgress()
			if kv != nil {
				b, _ := json.Marshal(claim{Run: it.Run, Row: it.Row, Holder: holder, At: time.Now().UnixMilli()})
				if r, err := kv.Update(alive, key, b, rev); err == nil {
					rev = r
				} else if alive.Err() == nil {
					log.Warn("hub: the row's claim was not renewed", "err", err)
				}
			}
		}
	})
	row := plan.Rows[0]
	rr, err := replay.FileRow(ctx, replay.RowJob{JS: w.JS, Plan: plan, Row: row, Session: it.Session, DryRun: it.DryRun,
		Executor: exec, Tag: ":" + holder, Logger: log})
	stop()
	beats.Wait()
	if err != nil {
		// The row may be in flight: its claim stays, and the worker that
		// takes it next settles it from the marks.
		_ = m.Nak()
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, context.Canceled) || !replay.Transient(err) {
			return fmt.Errorf("row %d of run %s: %w", it.Row, it.Run, err)
		}
		log.Warn("hub: row left to another attempt", "err", err)
		return nil
	}
	if kv != nil && rr.Outcome != replay.OutcomeCommitted && rr.Outcome != replay.OutcomeUnknown {
		// Nothing was filed: the record is free for another run.
		_ = retry(ctx, func() error { return kv.Delete(ctx, key, jetstream.LastRevision(rev)) })
	}
	return w.finish(ctx, m, it, holder, rr)
}

// finish writes the row's result and takes it off the queue.
func (w *Worker) finish(ctx context.Context, m jetstream.Msg, it Item, holder string, rr replay.RowResult) error {
	if err := replay.WriteResult(ctx, w.JS, it.Run, it.Session, ":"+holder, rr); err != nil {
		w.Logger.Warn("hub: result not written; the row goes back to the queue", "run_id", it.Run, "row", it.Row, "err", err)
		_ = m.Nak()
		return nil
	}
	if err := retry(ctx, func() error { return m.DoubleAck(ctx) }); err != nil {
		// Its result is written: a worker that takes it again finds it
		// settled in the marks and writes the same line.
		w.Logger.Warn("hub: row not acked", "run_id", it.Run, "row", it.Row, "err", err)
	}
	return nil
}

// claim claims key for c: created, or taken over from a holder of the same
// row that showed no sign of life for a Lease. other is the claim that
// stays someone else's.
func (w *Worker) claim(ctx context.Context, kv jetstream.KeyValue, key string, c claim) (rev uint64, other *claim, err error) {
	c.At = time.Now().UnixMilli()
	b, _ := json.Marshal(c)
	err = retry(ctx, func() (err error) { rev, err = kv.Create(ctx, key, b); return err })
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return rev, nil, err
	}
	var e jetstream.KeyValueEntry
	if err := retry(ctx, func() (err error) { e, err = kv.Get(ctx, key); return err }); err != nil {
		return 0, nil, err
	}
	var held claim
	if err := json.Unmarshal(e.Value(), &held); err != nil {
		return 0, nil, fmt.Errorf("claim %s: %w", key, err)
	}
	switch {
	case held.Run != c.Run || held.Row != c.Row:
		return 0, &held, nil
	case held.Holder == c.Holder: // our create landed; its answer did not
		return e.Revision(), nil, nil
	case time.Since(time.UnixMilli(held.At)) < Lease:
		return 0, &held, nil
	}
	rev, err = kv.Update(ctx, key, b, e.Revision())
	if err != nil {
		return 0, &held, nil // another worker took it over first
	}
	return rev, nil, nil
}

// plan opens the row's values and the run's skill: a plan of one row.
func (w *Worker) plan(ctx context.Context, it Item) (*replay.Plan, error) {
	sk, err := w.skill(ctx, it)
	if err != nil {
		return nil, err
	}
	plain, err := w.Key.open(it.Values, rowPlace(it.Run, it.Row))
	if err != nil {
		return nil, fmt.Errorf("row %d of run %s: %w (another hub key?)", it.Row, it.Run, err)
	}
	var values map[string]string
	if err := json.Unmarshal(plain, &values); err != nil {
		return nil, fmt.Errorf("row %d of run %s: %w", it.Row, it.Run, err)
	}
	return &replay.Plan{RunID: it.Run, SkillID: it.SkillID, Skill: sk, Digest: it.Digest,
		Rows: []replay.Row{{N: it.Row, Values: values, Key: it.Key}}}, nil
}

func (w *Worker) skill(ctx context.Context, it Item) (*skills.Skill, error) {
	if sk, ok := w.skills.Load(it.Run); ok {
		return sk.(*skills.Skill), nil
	}
	kv, err := w.JS.KeyValue(ctx, BucketSkills)
	if err != nil {
		return nil, err
	}
	var e jetstream.KeyValueEntry
	if err := retry(ctx, func() (err error) { e, err = kv.Get(ctx, it.Run); return err }); err != nil {
		return nil, fmt.Errorf("run %s's skill: %w", it.Run, err)
	}
	doc, err := w.Key.open(e.Value(), skillPlace(it.Run))
	if err != nil {
		return nil, fmt.Errorf("run %s's skill: %w (another hub key?)", it.Run, err)
	}
	if replay.Digest(doc) != it.Digest {
		return nil, fmt.Errorf("run %s's skill is not the version its rows were planned with", it.Run)
	}
	sk, err := skills.Parse(doc)
	if err != nil {
		return nil, fmt.Errorf("run %s's skill: %w", it.Run, err)
	}
	w.skills.Store(it.Run, sk)
	return sk, nil
}
