package hub

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// Worker takes rows from a hub's queue and files them, one row at a time
// in each of its slots (a browser's tabs). It files a row only when the
// row's message carries a valid MAC under its key and the run's
// coordinator granted it the row.
type Worker struct {
	JS  jetstream.JetStream
	Key *Key
	// Name tells this worker's claims and marks from another's: a machine
	// and process, never a secret.
	Name   string
	Tabs   Tabs
	Logger *slog.Logger
	// Files is the folder a row's upload files are written to while it
	// is filed (0700, each row's removed after it); default: the OS's
	// temporary folder.
	Files string

	skills  sync.Map // run id -> *skills.Skill, opened once
	silent  sync.Map // run id -> time.Time its coordinator last did not answer
	notHere sync.Map // run id -> true once said this worker cannot file it
	stop    chan struct{}
	once    sync.Once
}

// Run takes and files rows until ctx ends, an executor breaks (its
// browser is gone: the row it held goes back to the queue for another),
// or a row arrives made under another hub key: then every executor stops
// taking rows (a worker that cannot open rows would take each and hand it
// back, slowing the others), the row goes back, and the error (a
// *KeyError) says which key to copy here.
func (w *Worker) Run(ctx context.Context) error {
	if w.Logger == nil {
		w.Logger = slog.New(slog.DiscardHandler)
	}
	w.stop = make(chan struct{})
	w.once = sync.Once{}
	if err := retry(ctx, func() error { return Ensure(ctx, w.JS) }); err != nil {
		return err
	}
	var cons jetstream.Consumer
	if err := retry(ctx, func() (err error) { cons, err = w.JS.Consumer(ctx, StreamRows, Consumer); return err }); err != nil {
		return fmt.Errorf("the hub's row queue: %w", err)
	}
	slots := w.Tabs.Slots()
	errs := make(chan error, slots)
	for slot := range slots {
		go func() { errs <- w.takeRows(ctx, cons, slot) }()
	}
	var first error
	for range slots {
		err := <-errs
		var ke *KeyError
		switch {
		case errors.As(err, &ke):
			// Before any other: it is what the person must act on.
			first = err
		case err != nil && first == nil && ctx.Err() == nil:
			first = err
		}
	}
	return first
}

// takeRows is one slot's loop: fetch a row, file it, again.
func (w *Worker) takeRows(ctx context.Context, cons jetstream.Consumer, slot int) error {
	for ctx.Err() == nil {
		select {
		case <-w.stop:
			return nil
		default:
		}
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
			if err := w.file(ctx, m, slot); err != nil {
				var ke *KeyError
				if errors.As(err, &ke) {
					w.once.Do(func() { close(w.stop) })
				}
				return err
			}
		}
	}
	return nil
}

// open reads a row off the queue: its MAC checked (a *KeyError when it was
// made under another hub key), then its fields, which must name the
// subject's run.
func (w *Worker) open(m jetstream.Msg) (Item, error) {
	var it Item
	if err := w.Key.check(m.Headers(), kindRow, m.Subject(), m.Data()); err != nil {
		return it, err
	}
	if err := events.Decode(m.Data(), &it); err != nil {
		return it, fmt.Errorf("%w: %v", ErrNotAuthentic, err) // a MAC holder never writes one
	}
	if m.Subject() != rowsPrefix+it.Run || it.Row < 1 || it.Session < 1 {
		return it, ErrNotAuthentic
	}
	return it, nil
}

// file files one row taken from the queue; its error is for an executor
// that broke, or a *KeyError: this worker holds another hub key.
func (w *Worker) file(ctx context.Context, m jetstream.Msg, slot int) error {
	it, err := w.open(m)
	var ke *KeyError
	switch {
	case errors.As(err, &ke):
		_ = m.Nak() // for a worker with that key
		run, _ := strings.CutPrefix(m.Subject(), rowsPrefix)
		return &RunKeyError{Run: cut(run), Key: ke}
	case err != nil:
		// Forged, damaged, or from a version before MACs: no worker with
		// the key files it.
		w.Logger.Error("hub: a row on the queue without a valid MAC, dropped", "err", err)
		_ = m.Term()
		return nil
	}
	log := w.Logger.With("run_id", it.Run, "row", it.Row)
	meta, err := m.Metadata()
	if err != nil {
		return err
	}
	holder := fmt.Sprintf("%s/%d/%d/%s", w.Name, slot, meta.NumDelivered, nonce(3))
	plan, err := w.plan(ctx, it)
	if err != nil {
		// The row is the key's, its skill is not (deleted or replaced on
		// the hub): it waits for a resume to put the skill back.
		log.Error("hub: the row's skill cannot be opened", "err", err)
		_ = m.NakWithDelay(Lease)
		return nil
	}
	exec, err := w.Tabs.For(ctx, slot, plan.Skill)
	switch {
	case errors.Is(err, ErrNotNow):
		_ = m.NakWithDelay(Lease / 3)
		return nil
	case errors.Is(err, ErrNotHere):
		// Another worker holds what the skill needs: the row waits for
		// it. Said once a run, not once a row.
		if _, said := w.notHere.LoadOrStore(it.Run, true); !said {
			log.Warn("hub: this worker cannot file the run's rows; they wait for a worker that can", "err", err)
			w.tellCannot(it, err.Error())
		}
		_ = m.NakWithDelay(Lease / 3)
		return nil
	case err != nil:
		_ = m.Nak()
		return fmt.Errorf("row %d of run %s: %w", it.Row, it.Run, err)
	}
	var grant []byte
	settle := ""
	if !it.DryRun {
		if at, ok := w.silent.Load(it.Run); ok && time.Since(at.(time.Time)) < Lease {
			_ = m.NakWithDelay(Lease)
			return nil
		}
		var ans answer
		grant, ans, err = w.take(ctx, it)
		switch {
		case errors.Is(err, errNoCoordinator):
			// Its coordinator stopped (a resume starts it again) or the
			// hub is slow: the run's rows wait on the queue.
			w.silent.Store(it.Run, time.Now())
			log.Warn("hub: the run's coordinator does not answer; its rows wait on the hub")
			_ = m.NakWithDelay(Lease)
			return nil
		case err != nil:
			_ = m.NakWithDelay(Lease / 3)
			return nil
		}
		switch ans.Answer {
		case ansFile:
		case ansSettle:
			settle = ans.Reason
		case ansBusy:
			_ = m.NakWithDelay(Lease / 3)
			return nil
		default: // done, stale: nothing of it is to file
			_ = m.Term()
			return nil
		}
	}
	release := func() { _ = w.tell(opRelease, it, grant, "") }
	var (
		kv  jetstream.KeyValue
		key string
		rev uint64
	)
	if !it.DryRun {
		kv, err = w.JS.KeyValue(ctx, BucketClaims)
		if err != nil {
			release()
			_ = m.NakWithDelay(time.Second)
			return nil
		}
		key = claimKey(it)
		var other *claim
		rev, other, err = w.claim(ctx, kv, key, claim{Run: it.Run, Row: it.Row, Holder: holder})
		switch {
		case err != nil:
			release()
			log.Warn("hub: row not claimed; back to the queue", "err", err)
			_ = m.NakWithDelay(Lease / 3)
			return nil
		case other != nil && (other.Run != it.Run || other.Row != it.Row):
			rr := replay.RowResult{N: it.Row, Outcome: replay.OutcomeSkipped, Step: -1,
				Reason: fmt.Sprintf("the same record is claimed on the hub by run %s row %d", other.Run, other.Row), Hint: replay.HintAgain}
			return w.finish(ctx, m, it, holder, rr)
		case other != nil:
			release()
			_ = m.NakWithDelay(Lease / 3) // its holder is alive: it files it
			return nil
		}
	}
	js := w.Key.events(w.JS)
	if settle != "" {
		// The coordinator granted the row before and has no result: it
		// may be filed, whatever the hub's marks say (they may have been
		// deleted). Marked started, the row is settled by the skill's
		// verification or reported unknown, never filled blindly.
		mark := replay.RowMark{Row: it.Row, Key: it.Key, SkillID: it.SkillID, Reason: settle}
		id := fmt.Sprintf("%s:%d:started:%d:settle:%s", it.Run, it.Row, it.Session, holder)
		if _, err := events.NewPublisher(js).Publish(ctx, events.ReplaySubject(it.Run, it.Row, replay.EvStarted), id, &mark); err != nil {
			release()
			log.Warn("hub: row not marked for settling; back to the queue", "err", err)
			_ = m.NakWithDelay(Lease / 3)
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
			case <-time.After(beat):
			}
			_ = m.InProgress()
			if grant != nil {
				_ = w.tell(opAlive, it, grant, "")
			}
			if kv != nil {
				b := w.Key.sealClaim(key, claim{Run: it.Run, Row: it.Row, Holder: holder, At: time.Now().UnixMilli()})
				if r, err := kv.Update(alive, key, b, rev); err == nil {
					rev = r
				} else if alive.Err() == nil {
					log.Warn("hub: the row's claim was not renewed", "err", err)
				}
			}
		}
	})
	dropFiles, err := w.takeFiles(ctx, it, plan)
	defer dropFiles()
	if err != nil {
		stop()
		beats.Wait()
		release()
		log.Warn("hub: the row's upload files cannot be read; back to the queue", "err", err)
		_ = m.NakWithDelay(Lease / 3)
		return nil
	}
	row := plan.Rows[0]
	rr, err := replay.FileRow(ctx, replay.RowJob{JS: js, Plan: plan, Row: row, Session: it.Session, DryRun: it.DryRun,
		Executor: exec, Ask: w.asker(it, grant), Tag: ":" + holder, Logger: log})
	stop()
	beats.Wait()
	dropFiles() // before the result goes out: the row's files outlive it nowhere
	if err != nil {
		// The row may be in flight: its grant and claim stay, and the
		// worker that takes it next settles it.
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
	if err := replay.WriteResult(ctx, w.Key.events(w.JS), it.Run, it.Session, ":"+holder, rr); err != nil {
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

// nonce is n random bytes in hex.
func nonce(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// cut is s as a message may quote it: short, printable.
func cut(s string) string {
	if len(s) > 64 {
		s = s[:64]
	}
	return s
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
