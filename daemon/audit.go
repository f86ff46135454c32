package daemon

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/audit"
	"github.com/reprise-dev/reprise/store"
)

const (
	// checkpointFile keeps the audit chain's head outside the stream: a
	// chain alone cannot show that its tail was cut off, the remembered
	// head can.
	checkpointFile = "audit.checkpoint"
	// pendingFile keeps the entries the stream could not take, tagged under
	// the audit key, until they are written; a file that does not read is
	// moved to pendingFile+".bad" for a person to look at.
	pendingFile = "audit.pending"
	// highWaterPrefix names a data dir's high-water mark in the key store;
	// the rest of the name is derived from the data dir's path, since the
	// keychain is shared by every data dir of the user.
	highWaterPrefix = "audit-high-water-"
)

const (
	// appendTimeout bounds one write to the stream, whatever the caller's
	// context: an entry for an op whose context ended is still written,
	// and one the stream does not take in time is kept for later.
	appendTimeout = 5 * time.Second
	// closeFlushTimeout bounds the last try to write kept entries at Close.
	closeFlushTimeout = 2 * time.Second
	// Kept entries are retried in the background from retryMin, doubling
	// up to retryMax, besides before every Append.
	retryMin = 500 * time.Millisecond
	retryMax = 30 * time.Second
)

// auditor appends content-free entries to the audit chain: the Auditor the
// daemon hands to every component. After each entry it keeps the chain's
// head twice: in the checkpoint file, and in a high-water mark in the key
// store, where a copy of the data dir restored from before cannot roll it
// back. An entry the stream cannot take is kept in the pending file and
// written, in order and before any later entry, by the next Append, by a
// retry in the background, or at the next start: callers that drop
// Append's error lose nothing. It is safe for concurrent use.
type auditor struct {
	log         *audit.Log
	key         []byte
	path        string // the checkpoint file
	pendingPath string
	keys        store.KeyStore
	hwName      string
	logger      *slog.Logger

	// wmu serializes writes to the chain, the files and the mark; mu
	// guards what verification reads, so it never waits on a write.
	wmu   sync.Mutex
	queue []audit.Pending // kept entries, oldest first; under wmu

	mu   sync.Mutex
	head audit.Checkpoint
	hw   audit.HighWater

	kept atomic.Uint64 // len(queue), for verification
	lost atomic.Uint64 // entries neither written nor kept

	kick      chan struct{} // arms the retry loop
	quit      chan struct{}
	done      chan struct{} // closed when the retry loop returns
	stop      func()        // stops the verify service
	closeOnce sync.Once
}

// auditConfig is what an auditor needs of the daemon.
type auditConfig struct {
	JS   jetstream.JetStream
	NC   *nats.Conn // serves verification
	Keys store.KeyStore
	Home string
	Log  *slog.Logger
}

func (d *Daemon) openAudit(ctx context.Context) (*auditor, error) {
	return openAuditor(ctx, auditConfig{JS: d.js, NC: d.nc, Keys: d.keys, Home: d.home, Log: d.log})
}

// openAuditor continues the chain in the AUDIT stream. What it finds lost
// since the last run (a checkpoint or mark missing or forged, a chain
// rolled back or cut, kept entries gone) it writes into the chain first,
// then the entries kept from the last run, then it serves verification.
func openAuditor(ctx context.Context, cfg auditConfig) (*auditor, error) {
	key, err := store.LoadOrCreate(cfg.Keys, store.AuditChainKey, func() ([]byte, error) {
		k := make([]byte, audit.MinKeySize)
		_, err := rand.Read(k)
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("audit key: %w", err)
	}
	l, err := audit.Open(ctx, cfg.JS, key)
	if err != nil {
		return nil, fmt.Errorf("audit chain: %w", err)
	}
	hwName, err := highWaterName(cfg.Home)
	if err != nil {
		return nil, err
	}
	a := &auditor{log: l, key: key, path: filepath.Join(cfg.Home, checkpointFile), pendingPath: filepath.Join(cfg.Home, pendingFile),
		keys: cfg.Keys, hwName: hwName, logger: cfg.Log, kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	if err := a.recover(ctx); err != nil {
		return nil, err
	}
	a.stop, err = audit.Serve(cfg.NC, cfg.JS, key, a.checkpoint, audit.WithHighWater(a.highWater), audit.WithUnwritten(a.unwritten))
	if err != nil {
		return nil, err
	}
	go a.retry()
	return a, nil
}

// highWaterName is the key-store item of home's high-water mark.
func highWaterName(home string) (string, error) {
	abs, err := filepath.Abs(home)
	if err != nil {
		return "", fmt.Errorf("audit high-water mark: %w", err)
	}
	sum := sha256.Sum256([]byte(abs))
	return highWaterPrefix + hex.EncodeToString(sum[:8]), nil
}

// loss is an entry recording something the daemon found lost at start.
type loss struct {
	kind   string
	fields map[string]string
}

// recover compares the chain with the checkpoint file, the high-water mark
// and the pending file, records what is lost, and writes the kept entries.
func (a *auditor) recover(ctx context.Context) error {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	head := a.log.Head()
	at := strconv.FormatUint(head.Seq, 10)
	var losses []loss
	lost := func(kind, reason, count string, more ...string) {
		f := map[string]string{audit.FieldReason: reason, audit.FieldCount: count}
		if len(more) > 0 {
			f[audit.FieldHighWater] = more[0]
		}
		losses = append(losses, loss{kind, f})
	}

	saved, err := readCheckpoint(a.path, a.key)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if head.Seq > 0 {
			lost(audit.KindCheckpointLost, audit.CheckpointMissing, at)
		}
	case errors.Is(err, audit.ErrCheckpointForged):
		lost(audit.KindCheckpointLost, audit.CheckpointForged, at)
	case err != nil:
		lost(audit.KindCheckpointLost, audit.CheckpointUnreadable, at)
	}

	hw, err := a.readHighWater()
	switch {
	case errors.Is(err, store.ErrKeyNotFound):
		if head.Seq > 0 {
			a.logger.Warn("no audit high-water mark in the key store (a data dir from before marks were kept, or the item was deleted): one is kept from now on; a rollback before now cannot be seen", "head", head.Seq)
		}
	case errors.Is(err, audit.ErrHighWaterForged):
		lost(audit.KindCheckpointLost, audit.HighWaterForged, at)
	case errors.Is(err, audit.ErrHighWaterMalformed):
		lost(audit.KindCheckpointLost, audit.HighWaterUnreadable, at)
	case err != nil:
		return fmt.Errorf("audit high-water mark: %w", err)
	}

	switch {
	case hw.Head.Seq > head.Seq, hw.Head.Seq == head.Seq && !bytes.Equal(hw.Head.MAC, head.MAC):
		lost(audit.KindCheckpointLost, audit.CheckpointRolledBack, at, strconv.FormatUint(hw.Head.Seq, 10))
	case saved.Seq > head.Seq:
		lost(audit.KindCheckpointLost, audit.CheckpointTruncated, at, strconv.FormatUint(saved.Seq, 10))
	}

	kept, reason, err := a.readPending(ctx, hw, head)
	if err != nil {
		return err
	}
	if reason != "" {
		// Every number the mark counts that no kept entry answers for.
		gone := hw.Queued - hw.Written
		if len(kept) > 0 {
			gone = hw.Queued - kept[len(kept)-1].N
		}
		lost(audit.KindPendingLost, reason, strconv.FormatUint(gone, 10))
	}

	// The chain is taken as it stands, since it is about to say what it
	// lost: the mark moves down to it only here, and only so.
	mark := hw.Head.Seq
	hw.Head = head
	if len(kept) > 0 {
		hw.Queued = max(hw.Queued, kept[len(kept)-1].N)
		hw.Written = kept[0].N - 1
	} else {
		hw.Written = hw.Queued
	}
	a.mu.Lock()
	a.head, a.hw = head, hw
	a.mu.Unlock()
	for _, l := range losses {
		a.logger.Error("audit: "+l.kind+" "+l.fields[audit.FieldReason]+": recorded in the audit log; `reprise audit verify` reports it from now on",
			"head", head.Seq, "high_water", mark)
		if _, err := a.write(ctx, time.Now(), l.kind, l.fields, 0); err != nil {
			return fmt.Errorf("audit chain: record %s %s: %w", l.kind, l.fields[audit.FieldReason], err)
		}
	}
	if err := a.keepHead(); err != nil {
		return fmt.Errorf("audit chain: %w", err)
	}
	a.queue = kept
	a.kept.Store(uint64(len(kept)))
	if err := a.savePending(); err != nil { // without what the chain already holds
		return fmt.Errorf("audit: kept entries: %w", err)
	}
	if left := a.flushLocked(ctx); left > 0 {
		a.logger.Warn("audit entries kept by the last run are not written yet: retrying", "count", left)
	}
	return nil
}

// readPending returns the kept entries still to write, and the reason of a
// pending_lost entry when some that hw counts are gone. A file that does
// not read is moved aside, never deleted.
func (a *auditor) readPending(ctx context.Context, hw audit.HighWater, head audit.Checkpoint) ([]audit.Pending, string, error) {
	b, err := os.ReadFile(a.pendingPath)
	if errors.Is(err, fs.ErrNotExist) {
		if hw.Queued > hw.Written {
			return nil, audit.PendingMissing, nil
		}
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("audit: read kept entries: %w", err)
	}
	ps, err := audit.DecodePending(a.key, b)
	if err != nil {
		reason := audit.PendingUnreadable
		if errors.Is(err, audit.ErrPendingForged) {
			reason = audit.PendingForged
		}
		bad := a.pendingPath + ".bad"
		if rerr := os.Rename(a.pendingPath, bad); rerr != nil {
			return nil, "", fmt.Errorf("audit: %s does not read (%v) and cannot be moved aside: %w", a.pendingPath, err, rerr)
		}
		a.logger.Error("audit: the file of kept entries does not read; moved aside, and the loss recorded in the audit log", "file", bad, "err", err)
		return nil, reason, nil
	}
	// Entries the mark says were written are not written again: an older
	// copy of the file must not replay them.
	for len(ps) > 0 && ps[0].N <= hw.Written {
		ps = ps[1:]
	}
	// The first may be in the chain already: written just before the
	// daemon stopped, before the mark could say so.
	if len(ps) > 0 && head.Seq > hw.Head.Seq && a.inChain(ctx, ps[0]) {
		ps = ps[1:]
	}
	last := hw.Written
	if len(ps) > 0 {
		last = ps[len(ps)-1].N
	}
	if hw.Queued > last {
		return ps, audit.PendingRolledBack, nil
	}
	return ps, "", nil
}

// Append implements recorder.Auditor, skillbook.Auditor and
// computer.Auditor. An entry the stream cannot take now is kept and
// written later: the error then wraps audit.ErrQueued.
func (a *auditor) Append(ctx context.Context, kind string, fields map[string]string) error {
	if a == nil {
		return nil
	}
	if err := audit.CheckFields(kind, fields); err != nil {
		return fmt.Errorf("audit %s: %w", kind, err)
	}
	now := time.Now()
	a.wmu.Lock()
	defer a.wmu.Unlock()
	cause := errors.New("entries kept from before are not written yet")
	if a.flushLocked(ctx) == 0 {
		written, err := a.write(ctx, now, kind, fields, 0)
		if written || err == nil {
			return err
		}
		cause = err
	}
	return a.keepLocked(now, kind, fields, cause)
}

// write appends one entry (kept entry n, or 0) and keeps the new head.
// written says whether the entry is in the chain, whatever err says.
func (a *auditor) write(ctx context.Context, t time.Time, kind string, fields map[string]string, n uint64) (written bool, err error) {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), appendTimeout)
	defer cancel()
	err = a.log.AppendAt(wctx, t, kind, fields)
	if errors.Is(err, audit.ErrConflict) {
		err = a.log.AppendAt(wctx, t, kind, fields) // the Log has read the head again
	}
	if err != nil {
		return false, err
	}
	head := a.log.Head()
	a.mu.Lock()
	mark := a.hw.Head.Seq
	rolled := head.Seq <= mark // the stream went back under the running daemon
	a.head = head
	if !rolled {
		a.hw.Head = head
	}
	if n > 0 {
		a.hw.Written = n
	}
	a.mu.Unlock()
	if rolled {
		if err := a.recordRollback(ctx, head.Seq-1, mark); err != nil {
			return true, fmt.Errorf("audit %s written, but %w", kind, err)
		}
		return true, nil
	}
	if err := a.keepHead(); err != nil {
		return true, fmt.Errorf("audit %s written, but %w", kind, err)
	}
	return true, nil
}

// recordRollback writes, as at start, that the chain ended at entry at
// when the mark remembered entry mark; only then does the mark come down
// to the chain. Until it is written the mark stays where it was, so the
// next write or start finds the rollback again.
func (a *auditor) recordRollback(ctx context.Context, at, mark uint64) error {
	a.logger.Error("audit: the chain went back while the daemon ran: recorded in the audit log", "head", at, "high_water", mark)
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), appendTimeout)
	defer cancel()
	f := map[string]string{audit.FieldReason: audit.CheckpointRolledBack, audit.FieldCount: strconv.FormatUint(at, 10),
		audit.FieldHighWater: strconv.FormatUint(mark, 10)}
	if err := a.log.Append(wctx, audit.KindCheckpointLost, f); err != nil {
		return fmt.Errorf("the rollback found was not recorded: %w", err)
	}
	head := a.log.Head()
	a.mu.Lock()
	a.head, a.hw.Head = head, head
	a.mu.Unlock()
	return a.keepHead()
}

// keepHead writes the head to the checkpoint file and the high-water mark.
func (a *auditor) keepHead() error {
	a.mu.Lock()
	head, hw := a.head, a.hw
	a.mu.Unlock()
	b, err := json.Marshal(audit.Seal(a.key, head))
	if err == nil {
		err = writeFileAtomic(a.path, b, 0o600)
	}
	if err != nil {
		err = fmt.Errorf("the checkpoint was not kept: %w", err)
	}
	if herr := a.keys.Put(a.hwName, audit.SealHighWater(a.key, a.hwName, hw)); herr != nil {
		err = errors.Join(err, fmt.Errorf("the high-water mark was not kept (a rollback to before this entry would go unseen): %w", herr))
	}
	return err
}

// keepLocked keeps an entry the stream did not take: in the pending file
// and counted in the high-water mark, so that even a pending file lost
// with it is reported at the next start.
func (a *auditor) keepLocked(t time.Time, kind string, fields map[string]string, cause error) error {
	if len(a.queue) >= audit.MaxPending {
		a.lost.Add(1)
		a.logger.Error("audit entry lost: not written, and too many wait already", "kind", kind, "waiting", len(a.queue), "err", cause)
		return fmt.Errorf("audit %s: not written (%w), and %d entries wait already: it is lost", kind, cause, len(a.queue))
	}
	a.mu.Lock()
	p, err := audit.NewPending(a.hw.Queued+1, t, kind, fields)
	if err == nil {
		a.hw.Queued = p.N
	}
	a.mu.Unlock()
	if err != nil {
		return err
	}
	a.queue = append(a.queue, p)
	a.kept.Store(uint64(len(a.queue)))
	select {
	case a.kick <- struct{}{}:
	default:
	}
	serr := a.savePending()
	if herr := a.keys.Put(a.hwName, audit.SealHighWater(a.key, a.hwName, a.highWaterNow())); herr != nil {
		serr = errors.Join(serr, fmt.Errorf("high-water mark: %w", herr))
	}
	if serr != nil {
		a.logger.Error("audit entry not written and not kept on disk: held in memory until written", "kind", kind, "err", cause, "keep_err", serr)
		return fmt.Errorf("audit %s: %w in memory only (%v): %w", kind, audit.ErrQueued, serr, cause)
	}
	a.logger.Warn("audit entry not written: kept to write before any later one", "kind", kind, "waiting", len(a.queue), "err", cause)
	return fmt.Errorf("audit %s: %w: %w", kind, audit.ErrQueued, cause)
}

// flushLocked writes kept entries, oldest first, until one fails, and
// returns how many still wait. The caller holds wmu.
func (a *auditor) flushLocked(ctx context.Context) int {
	for len(a.queue) > 0 {
		p := a.queue[0]
		var written bool
		var err error
		if a.inChain(ctx, p) {
			written, err = true, a.accountWritten(p.N)
		} else {
			written, err = a.write(ctx, p.Time(), p.Kind, p.Fields, p.N)
		}
		if !written {
			a.logger.Debug("kept audit entries still not written", "waiting", len(a.queue), "err", err)
			break
		}
		if err != nil {
			a.logger.Error("audit: kept entry written, with an error", "kind", p.Kind, "err", err)
		}
		a.queue = a.queue[1:]
		a.kept.Store(uint64(len(a.queue)))
		if len(a.queue) == 0 {
			a.mu.Lock()
			behind := a.hw.Written != a.hw.Queued
			a.hw.Written = a.hw.Queued // numbers reported lost are accounted for too
			a.mu.Unlock()
			if behind {
				if err := a.keepHead(); err != nil {
					a.logger.Error("audit: kept entries written, with an error", "err", err)
				}
			}
			a.logger.Info("audit entries kept earlier are written")
		}
		if err := a.savePending(); err != nil {
			// The mark says it was written: it is not written again.
			a.logger.Error("audit: could not update the file of kept entries", "err", err)
		}
	}
	return len(a.queue)
}

// inChain reports whether p is in the chain already: its last entry, past
// the head the auditor knows, kept because its ack was lost yet stored.
func (a *auditor) inChain(ctx context.Context, p audit.Pending) bool {
	last, err := a.log.Last(ctx)
	return err == nil && last != nil && last.Seq > a.checkpoint().Seq && p.Is(last)
}

// accountWritten counts kept entry n, found in the chain, as written.
func (a *auditor) accountWritten(n uint64) error {
	head := a.log.Head()
	a.mu.Lock()
	a.head, a.hw.Written = head, n
	if head.Seq > a.hw.Head.Seq {
		a.hw.Head = head
	}
	a.mu.Unlock()
	return a.keepHead()
}

// savePending writes the queue to the pending file, or removes the file
// when the queue is empty.
func (a *auditor) savePending() error {
	if len(a.queue) == 0 {
		if err := os.Remove(a.pendingPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := audit.EncodePending(a.key, a.queue)
	if err != nil {
		return err
	}
	return writeFileAtomic(a.pendingPath, b, 0o600)
}

// retry writes kept entries in the background: armed when one is kept,
// backing off while the stream keeps refusing.
func (a *auditor) retry() {
	defer close(a.done)
	t := time.NewTimer(retryMin)
	t.Stop()
	armed, wait := false, retryMin
	for {
		select {
		case <-a.quit:
			t.Stop()
			return
		case <-a.kick:
			if !armed {
				armed, wait = true, retryMin
				t.Reset(wait)
			}
			continue
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), appendTimeout)
		a.wmu.Lock()
		left := a.flushLocked(ctx)
		a.wmu.Unlock()
		cancel()
		armed = left > 0
		if armed {
			wait = min(2*wait, retryMax)
			t.Reset(wait)
		}
	}
}

func (a *auditor) checkpoint() audit.Checkpoint {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.head
}

func (a *auditor) highWater() audit.Checkpoint { return a.highWaterNow().Head }

func (a *auditor) highWaterNow() audit.HighWater {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.hw
}

func (a *auditor) unwritten() audit.Unwritten {
	return audit.Unwritten{Kept: a.kept.Load(), Lost: a.lost.Load()}
}

// readHighWater reads the mark from the key store: store.ErrKeyNotFound
// when there is none.
func (a *auditor) readHighWater() (audit.HighWater, error) {
	b, err := a.keys.Get(a.hwName)
	if err != nil {
		return audit.HighWater{}, err
	}
	return audit.OpenHighWater(a.key, a.hwName, b)
}

// close stops verification and the retries, and tries once more to write
// what is kept; what still waits is written at the next start. It is safe
// to call twice.
func (a *auditor) close() {
	if a == nil {
		return
	}
	a.closeOnce.Do(func() {
		if a.stop != nil {
			a.stop()
		}
		close(a.quit)
		<-a.done
		ctx, cancel := context.WithTimeout(context.Background(), closeFlushTimeout)
		defer cancel()
		a.wmu.Lock()
		defer a.wmu.Unlock()
		if left := a.flushLocked(ctx); left > 0 {
			a.logger.Warn("audit entries kept to write at the next start", "count", left, "file", a.pendingPath)
		}
	})
}

// readCheckpoint reads the sealed checkpoint at path: fs.ErrNotExist when
// there is none, audit.ErrCheckpointForged when its tag is not the key's.
func readCheckpoint(path string, key []byte) (audit.Checkpoint, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return audit.Checkpoint{}, err
	}
	var sealed audit.SealedCheckpoint
	if err := json.Unmarshal(b, &sealed); err != nil {
		return audit.Checkpoint{}, fmt.Errorf("%s is malformed: %w", path, err)
	}
	return sealed.Open(key)
}
