package daemon

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/audit"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/store"
)

// verifyAudit asks the running daemon at home to verify its audit chain,
// as `reprise audit verify` does.
func verifyAudit(t *testing.T, home string) audit.Report {
	t.Helper()
	nc, _, err := client.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	m, err := nc.Request(events.LocalAuditVerify, nil, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var r audit.VerifyReply
	if err := json.Unmarshal(m.Data, &r); err != nil || r.Report == nil {
		t.Fatalf("verify reply %s: %v", m.Data, err)
	}
	return *r.Report
}

func hasProblem(r audit.Report, kind string) bool {
	for _, p := range r.Problems {
		if p.Kind == kind {
			return true
		}
	}
	return false
}

// TestAuditCheckpointCannotBeForged: cutting the chain's tail and writing a
// checkpoint with a MAC copied from the stream, or deleting the checkpoint,
// is reported by verify, for good, and an untouched log stays intact across
// restarts.
func TestAuditCheckpointCannotBeForged(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fill := func(t *testing.T, home string) *Daemon {
		d := startDaemon(t, home)
		for i := range 5 {
			if err := d.audit.Append(ctx, audit.KindReplayRun, map[string]string{audit.FieldCount: "1", audit.FieldRunID: "run_" + string(rune('a'+i))}); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	// lastMAC returns the MAC of the chain's entry at stream seq.
	macAt := func(t *testing.T, d *Daemon, seq uint64) []byte {
		s, err := d.JetStream().Stream(ctx, events.StreamAudit)
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.GetMsg(ctx, seq)
		if err != nil {
			t.Fatal(err)
		}
		e, err := audit.DecodeEntry(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		return e.MAC
	}

	t.Run("untouched", func(t *testing.T) {
		home := t.TempDir()
		fill(t, home).Close()
		startDaemon(t, home)
		if r := verifyAudit(t, home); !r.OK {
			t.Fatalf("an untouched log after a restart: %+v; want intact", r.Problems)
		}
	})
	t.Run("tail cut, checkpoint copied from the stream", func(t *testing.T) {
		home := t.TempDir()
		d := fill(t, home)
		// The stream takes no deletes: the tail is cut as by editing its
		// files, keeping entries 1-3 byte for byte.
		js := d.JetStream()
		s, _ := js.Stream(ctx, events.StreamAudit)
		var kept []*jetstream.RawStreamMsg
		for seq := uint64(1); seq <= 3; seq++ {
			m, err := s.GetMsg(ctx, seq)
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, m)
		}
		mac3 := macAt(t, d, 3)
		if err := js.DeleteStream(ctx, events.StreamAudit); err != nil {
			t.Fatal(err)
		}
		if err := events.EnsureStores(ctx, js); err != nil {
			t.Fatal(err)
		}
		for _, m := range kept {
			if _, err := js.Publish(ctx, m.Subject, m.Data); err != nil {
				t.Fatal(err)
			}
		}
		forged, _ := json.Marshal(audit.SealedCheckpoint{Seq: 3, MAC: mac3, Tag: make([]byte, 32)})
		d.Close()
		if err := os.WriteFile(filepath.Join(home, checkpointFile), forged, 0o600); err != nil {
			t.Fatal(err)
		}
		startDaemon(t, home)
		if r := verifyAudit(t, home); r.OK || !hasProblem(r, audit.ProblemCheckpointLost) {
			t.Fatalf("a forged checkpoint over a cut tail verified as %+v; want checkpoint_lost", r)
		}
	})
	t.Run("checkpoint deleted", func(t *testing.T) {
		home := t.TempDir()
		fill(t, home).Close()
		if err := os.Remove(filepath.Join(home, checkpointFile)); err != nil {
			t.Fatal(err)
		}
		d := startDaemon(t, home)
		d.Close()
		startDaemon(t, home) // a fresh checkpoint now exists: the loss stays on record
		r := verifyAudit(t, home)
		if r.OK || !hasProblem(r, audit.ProblemCheckpointLost) {
			t.Fatalf("a log whose checkpoint was deleted verified as %+v; want checkpoint_lost", r)
		}
	})
}

// auditEnv is one data dir's audit log outside a daemon: a real embedded
// server, a real key store (the keychain when one answers, else key
// files), and the auditor the daemon would run, restarted at will.
type auditEnv struct {
	t    *testing.T
	home string
	keys store.KeyStore
	nc   *nats.Conn
	js   jetstream.JetStream
	a    *auditor
	logs *syncbuf.Buffer
}

func newAuditEnv(t *testing.T) *auditEnv {
	t.Helper()
	_, nc, js := natstest.Start(t, "m_audit")
	e := &auditEnv{t: t, home: t.TempDir(), keys: testKeyStore(t), nc: nc, js: js, logs: &syncbuf.Buffer{}}
	e.open(nc, js)
	return e
}

// testKeyStore is the keychain under a service of the test's own when one
// answers (run under scripts/with-keyring), else key files.
func testKeyStore(t *testing.T) store.KeyStore {
	t.Helper()
	var r [8]byte
	_, _ = rand.Read(r[:])
	kr := store.KeyringKeyStore{Service: "reprise-test-" + hex.EncodeToString(r[:])}
	if ok, why := kr.Probe(); !ok {
		t.Logf("keys in files: %s", why)
		return store.FileKeyStore{Dir: filepath.Join(t.TempDir(), "keys")}
	}
	t.Cleanup(func() {
		_ = kr.Delete(store.AuditChainKey)
	})
	return kr
}

// open starts an auditor on the data dir, as a daemon start does.
func (e *auditEnv) open(nc *nats.Conn, js jetstream.JetStream) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, err := openAuditor(ctx, auditConfig{JS: js, NC: nc, Keys: e.keys, Home: e.home, Log: slog.New(slog.NewTextHandler(e.logs, nil))})
	if err != nil {
		e.t.Fatalf("openAuditor: %v", err)
	}
	e.t.Cleanup(a.close)
	if name, _ := highWaterName(e.home); e.keys != nil {
		e.t.Cleanup(func() { _ = e.keys.Delete(name) })
	}
	e.a = a
}

// restart closes the auditor and opens another on the same data dir and
// store, over the daemon connection.
func (e *auditEnv) restart() {
	e.t.Helper()
	e.a.close()
	e.open(e.nc, e.js)
}

// add appends n entries that must be written now.
func (e *auditEnv) add(n int) {
	e.t.Helper()
	for range n {
		if err := e.a.Append(context.Background(), audit.KindRecordingEvicted, map[string]string{audit.FieldRecordingID: "rec_1", audit.FieldReason: "retention"}); err != nil {
			e.t.Fatalf("Append = %v", err)
		}
	}
}

// keep appends an entry the stream must refuse, and checks it was kept.
func (e *auditEnv) keep(row int) {
	e.t.Helper()
	err := e.a.Append(context.Background(), audit.KindReplayRow, map[string]string{audit.FieldRunID: "run_1", audit.FieldRow: strconv.Itoa(row)})
	if !errors.Is(err, audit.ErrQueued) {
		e.t.Fatalf("Append while the stream refuses = %v; want audit.ErrQueued", err)
	}
}

// limit makes the AUDIT stream refuse new entries, as a stream at its
// limit does, or takes the limit off again.
func (e *auditEnv) limit(on bool) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var cfg jetstream.StreamConfig
	for _, c := range events.StreamConfigs() {
		if c.Name == events.StreamAudit {
			cfg = c
		}
	}
	if on {
		s, err := e.js.Stream(ctx, events.StreamAudit)
		if err != nil {
			e.t.Fatal(err)
		}
		info, err := s.Info(ctx)
		if err != nil {
			e.t.Fatal(err)
		}
		cfg.MaxMsgs, cfg.Discard = max(int64(info.State.Msgs), 1), jetstream.DiscardNew
		if info.State.Msgs == 0 {
			cfg.MaxBytes, cfg.MaxMsgs = 1, -1
		}
	}
	if _, err := e.js.UpdateStream(ctx, cfg); err != nil {
		e.t.Fatalf("limit the AUDIT stream (%v): %v", on, err)
	}
}

// snapshot returns the stream's messages and the checkpoint file as they
// are: what a program saves to restore later.
func (e *auditEnv) snapshot() ([]*jetstream.RawStreamMsg, []byte) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := e.js.Stream(ctx, events.StreamAudit)
	if err != nil {
		e.t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	var msgs []*jetstream.RawStreamMsg
	for seq := uint64(1); seq <= info.State.LastSeq; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if err != nil {
			e.t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	cp, err := os.ReadFile(filepath.Join(e.home, checkpointFile))
	if err != nil {
		e.t.Fatal(err)
	}
	return msgs, cp
}

// rollBack replaces the stream with msgs (the stream takes no deletes: as
// by restoring its files) and, when cp is given, the checkpoint file.
func (e *auditEnv) rollBack(msgs []*jetstream.RawStreamMsg, cp []byte) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.js.DeleteStream(ctx, events.StreamAudit); err != nil {
		e.t.Fatal(err)
	}
	if err := events.EnsureStores(ctx, e.js); err != nil {
		e.t.Fatal(err)
	}
	for _, m := range msgs {
		if _, err := e.js.Publish(ctx, m.Subject, m.Data); err != nil {
			e.t.Fatal(err)
		}
	}
	if cp != nil {
		if err := os.WriteFile(filepath.Join(e.home, checkpointFile), cp, 0o600); err != nil {
			e.t.Fatal(err)
		}
	}
}

// chain returns the kinds of the chain's entries, with the reason of those
// that give one, in order.
func (e *auditEnv) chain() []string {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var kinds []string
	err := audit.Tail(ctx, e.js, 0, false, func(_ audit.Message, en *audit.Entry, err error) error {
		if err != nil {
			return err
		}
		k := en.Kind
		if r := en.Fields[audit.FieldReason]; r != "" && strings.HasPrefix(k, "audit.") {
			k += ":" + r
		}
		if r := en.Fields[audit.FieldRow]; r != "" {
			k += ":" + r
		}
		kinds = append(kinds, k)
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return kinds
}

// verify asks the running auditor's service, as `reprise audit verify` does.
func (e *auditEnv) verify(nc *nats.Conn) audit.Report {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := audit.RequestVerify(ctx, nc)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func problemKinds(r audit.Report) []string {
	var ks []string
	for _, p := range r.Problems {
		ks = append(ks, p.Kind)
	}
	return ks
}

const evicted = audit.KindRecordingEvicted

// TestAuditHoldsAgainstRollbackAndLoss: a local program that rolls the audit
// log back to an older genuine copy (its tagged checkpoint with it) is seen
// by the high-water mark in the key store, and said in the chain for good;
// an entry the stream could not take is kept, across a restart, and written
// in order before any later one; a kept-entries file that is damaged,
// forged, deleted or replayed loses nothing silently. The attack table in
// docs/security.md, "Threat model", names this test.
func TestAuditHoldsAgainstRollbackAndLoss(t *testing.T) {
	tests := []struct {
		name   string
		attack func(e *auditEnv)
		chain  []string // the chain's kinds after the attack and a restart
		want   []string // the problems verify reports then
	}{
		{"untouched, restarted", func(e *auditEnv) { e.add(3) },
			[]string{evicted, evicted, evicted}, nil},
		{"the caller's context already ended", func(e *auditEnv) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := e.a.Append(ctx, evicted, nil); err != nil {
				e.t.Fatalf("Append with an ended context = %v; want it written", err)
			}
		}, []string{evicted}, nil},
		{"rolled back to an older genuine checkpoint", func(e *auditEnv) {
			e.add(3)
			msgs, cp := e.snapshot()
			e.add(3)
			e.a.close()
			e.rollBack(msgs, cp)
		}, []string{evicted, evicted, evicted, "audit.checkpoint_lost:rolled_back"}, []string{audit.ProblemRolledBack}},
		{"rolled back and the checkpoint deleted", func(e *auditEnv) {
			e.add(2)
			msgs, _ := e.snapshot()
			e.add(1)
			e.a.close()
			e.rollBack(msgs, nil)
			if err := os.Remove(filepath.Join(e.home, checkpointFile)); err != nil {
				e.t.Fatal(err)
			}
		}, []string{evicted, evicted, "audit.checkpoint_lost:missing", "audit.checkpoint_lost:rolled_back"},
			[]string{audit.ProblemCheckpointLost, audit.ProblemRolledBack}},
		{"rolled back while the daemon runs", func(e *auditEnv) {
			e.add(2)
			msgs, cp := e.snapshot()
			e.add(2)
			e.rollBack(msgs, cp)
			e.add(1)
		}, []string{evicted, evicted, evicted, "audit.checkpoint_lost:rolled_back"}, []string{audit.ProblemRolledBack}},
		{"stream at its limit, then a restart", func(e *auditEnv) {
			e.add(2)
			e.limit(true)
			e.keep(1)
			e.keep(2)
			e.a.close() // its last try fails too
			if _, err := os.Stat(filepath.Join(e.home, pendingFile)); err != nil {
				e.t.Fatalf("kept entries after close: %v", err)
			}
			e.limit(false)
		}, []string{evicted, evicted, audit.KindReplayRow + ":1", audit.KindReplayRow + ":2"}, nil},
		{"connection closed, then a restart", func(e *auditEnv) {
			nc2, err := e.nc.Opts.Connect()
			if err != nil {
				e.t.Fatal(err)
			}
			js2, err := jetstream.New(nc2)
			if err != nil {
				e.t.Fatal(err)
			}
			e.a.close()
			e.open(nc2, js2)
			e.add(1)
			nc2.Close()
			e.keep(1)
		}, []string{evicted, audit.KindReplayRow + ":1"}, nil},
		{"stream back while the daemon runs: the next entry writes the kept ones first", func(e *auditEnv) {
			e.limit(true)
			e.keep(1)
			e.keep(2)
			e.limit(false)
			e.add(1)
		}, []string{audit.KindReplayRow + ":1", audit.KindReplayRow + ":2", evicted}, nil},
		{"stream back while the daemon runs: the retry writes them", func(e *auditEnv) {
			e.add(1)
			e.limit(true)
			e.keep(1)
			e.limit(false)
			waitFor(e.t, "the retry to write the kept entry", func() bool { return e.a.unwritten().Kept == 0 })
		}, []string{evicted, audit.KindReplayRow + ":1"}, nil},
		{"kept entry stored after all (its ack lost): not written twice", func(e *auditEnv) {
			e.add(1)
			e.limit(true)
			e.keep(1)
			e.limit(false)
			e.a.wmu.Lock() // no retry meanwhile
			defer e.a.wmu.Unlock()
			p := e.a.queue[0]
			l, err := audit.Open(context.Background(), e.js, e.a.key)
			if err != nil {
				e.t.Fatal(err)
			}
			if err := l.AppendAt(context.Background(), p.Time(), p.Kind, p.Fields); err != nil {
				e.t.Fatal(err)
			}
		}, []string{evicted, audit.KindReplayRow + ":1"}, nil},
		{"kept entries' file damaged", func(e *auditEnv) {
			e.limit(true)
			e.keep(1)
			e.a.close()
			writeFile(e.t, filepath.Join(e.home, pendingFile), []byte(`{"entries":[{"n":1,"t":1,"kind":"replay.row","fi`))
			e.limit(false)
		}, []string{"audit.pending_lost:unreadable"}, []string{audit.ProblemPendingLost}},
		{"kept entries' file forged", func(e *auditEnv) {
			e.add(1)
			forged, err := audit.EncodePending(bytes.Repeat([]byte{7}, audit.MinKeySize), []audit.Pending{{N: 1, Kind: audit.KindConsentIssued}})
			if err != nil {
				e.t.Fatal(err)
			}
			e.a.close()
			writeFile(e.t, filepath.Join(e.home, pendingFile), forged)
		}, []string{evicted, "audit.pending_lost:forged"}, []string{audit.ProblemPendingLost}},
		{"kept entries' file deleted", func(e *auditEnv) {
			e.limit(true)
			e.keep(1)
			e.keep(2)
			e.a.close()
			if err := os.Remove(filepath.Join(e.home, pendingFile)); err != nil {
				e.t.Fatal(err)
			}
			e.limit(false)
		}, []string{"audit.pending_lost:missing"}, []string{audit.ProblemPendingLost}},
		{"kept entries' file replayed after they were written", func(e *auditEnv) {
			e.limit(true)
			e.keep(1)
			e.a.close()
			old, err := os.ReadFile(filepath.Join(e.home, pendingFile))
			if err != nil {
				e.t.Fatal(err)
			}
			e.limit(false)
			e.restart()
			e.a.close()
			writeFile(e.t, filepath.Join(e.home, pendingFile), old)
		}, []string{audit.KindReplayRow + ":1"}, nil},
		{"high-water mark forged", func(e *auditEnv) {
			e.add(1)
			e.a.close()
			name, _ := highWaterName(e.home)
			forged := audit.SealHighWater(bytes.Repeat([]byte{7}, audit.MinKeySize), name, audit.HighWater{})
			if err := e.keys.Put(name, forged); err != nil {
				e.t.Fatal(err)
			}
		}, []string{evicted, "audit.checkpoint_lost:high_water_forged"}, []string{audit.ProblemCheckpointLost}},
		// The limit of the design: the mark is as safe as the keychain. A
		// program that deletes it (and so could also read the audit key)
		// is logged, not recorded, so that a data dir from before marks
		// were kept does not report a loss for good.
		{"high-water mark deleted: logged only", func(e *auditEnv) {
			e.add(1)
			e.a.close()
			name, _ := highWaterName(e.home)
			if err := e.keys.Delete(name); err != nil {
				e.t.Fatal(err)
			}
		}, []string{evicted}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newAuditEnv(t)
			tc.attack(e)
			e.restart()
			if got := e.chain(); !slices.Equal(got, tc.chain) {
				t.Errorf("chain after the restart = %v; want %v", got, tc.chain)
			}
			r := e.verify(e.nc)
			if got := problemKinds(r); !slices.Equal(got, tc.want) || r.OK != (len(tc.want) == 0) {
				t.Errorf("verify = ok %v, %v; want %v\n%v", r.OK, got, tc.want, r.Problems)
			}
			if _, err := os.Stat(filepath.Join(e.home, pendingFile)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("kept entries' file after they were written: %v; want none", err)
			}
			// Said for good: another restart, and the same report.
			e.restart()
			if r2 := e.verify(e.nc); !slices.Equal(problemKinds(r2), problemKinds(r)) {
				t.Errorf("verify after another restart = %v; want %v again", problemKinds(r2), problemKinds(r))
			}
		})
	}
}

// TestAuditRollbackThroughTheDaemon: the whole data dir's store and its
// tagged checkpoint, saved while the daemon was down, restored after it
// wrote more: the daemon's next start writes the rollback into the chain,
// and verify reports it.
func TestAuditRollbackThroughTheDaemon(t *testing.T) {
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	add := func(d *Daemon, n int) {
		for range n {
			if err := d.audit.Append(ctx, evicted, map[string]string{audit.FieldRecordingID: "rec_1"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	d := startDaemon(t, home)
	t.Logf("the high-water mark is kept in the %s key store", d.keysKind)
	add(d, 3)
	d.Close()
	saved := t.TempDir()
	if err := os.CopyFS(saved, os.DirFS(filepath.Join(home, "jetstream"))); err != nil {
		t.Fatal(err)
	}
	cp, err := os.ReadFile(filepath.Join(home, checkpointFile))
	if err != nil {
		t.Fatal(err)
	}

	d = startDaemon(t, home)
	add(d, 4)
	if r := verifyAudit(t, home); !r.OK || r.Head.Seq != 7 {
		t.Fatalf("before the rollback: %+v; want intact at entry 7", r)
	}
	d.Close()
	if err := os.RemoveAll(filepath.Join(home, "jetstream")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(home, "jetstream"), os.DirFS(saved)); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, checkpointFile), cp)

	d = startDaemon(t, home)
	r := verifyAudit(t, home)
	if got, want := problemKinds(r), []string{audit.ProblemRolledBack}; r.OK || !slices.Equal(got, want) || r.Problems[0].EntrySeq != 4 {
		t.Fatalf("verify after the rollback = %v; want %v at entry 4", r.Problems, want)
	}
	if !strings.Contains(r.Problems[0].Detail, "ended at entry 3") || !strings.Contains(r.Problems[0].Detail, "remembered entry 7") {
		t.Errorf("detail %q; want it to say entry 3 of 7", r.Problems[0].Detail)
	}
	d.Close()
	startDaemon(t, home)
	if r := verifyAudit(t, home); !slices.Equal(problemKinds(r), []string{audit.ProblemRolledBack}) {
		t.Fatalf("verify after another restart = %v; want the rollback still reported", r.Problems)
	}
}

// A kept entry is reported by verify while it waits: it is in no chain yet.
func TestAuditReportsKeptEntries(t *testing.T) {
	e := newAuditEnv(t)
	e.add(1)
	e.limit(true)
	e.keep(1)
	r := e.verify(e.nc)
	if r.OK || !hasProblem(r, audit.ProblemUnwritten) || !strings.Contains(r.Problems[0].Detail, "kept") {
		t.Fatalf("verify while an entry waits = %+v; want it reported unwritten, kept", r)
	}
	if !strings.Contains(e.logs.String(), "kept to write") {
		t.Errorf("log = %s; want the kept entry said", e.logs.String())
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
