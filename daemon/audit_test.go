package daemon

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/audit"
	"github.com/reprise-dev/reprise/events"
)

// verifyAudit asks the running daemon at home to verify its audit chain,
// as `reprise audit verify` does.
func verifyAudit(t *testing.T, home string) audit.Report {
	t.Helper()
	nc, _, err := Connect(home)
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
