package daemon

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/reprise-dev/reprise/audit"
	"github.com/reprise-dev/reprise/store"
)

// checkpointFile keeps the audit chain's head outside the stream: a chain
// alone cannot show that its tail was cut off, the remembered head can.
const checkpointFile = "audit.checkpoint"

// auditor appends content-free entries to the audit chain and remembers its
// head after each one.
type auditor struct {
	log  *audit.Log
	key  []byte
	path string

	mu        sync.Mutex
	head      audit.Checkpoint
	stop      func()
	unwritten atomic.Uint64 // entries Append could not write
}

func (d *Daemon) openAudit(ctx context.Context) (*auditor, error) {
	key, err := store.LoadOrCreate(d.keys, store.AuditChainKey, func() ([]byte, error) {
		k := make([]byte, audit.MinKeySize)
		_, err := rand.Read(k)
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("audit key: %w", err)
	}
	l, err := audit.Open(ctx, d.js, key)
	if err != nil {
		return nil, fmt.Errorf("audit chain: %w", err)
	}
	a := &auditor{log: l, key: key, path: filepath.Join(d.home, checkpointFile), head: l.Head()}
	saved, err := readCheckpoint(a.path, key)
	lost := ""
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if a.head.Seq > 0 {
			lost = audit.CheckpointMissing
		}
	case errors.Is(err, audit.ErrCheckpointForged):
		lost = audit.CheckpointForged
	case err != nil:
		lost = audit.CheckpointUnreadable
	case saved.Seq > a.head.Seq:
		a.head = saved // the stream lost entries while the daemon was down: verify will say so
	}
	if lost != "" {
		// Said in the chain itself, so that a checkpoint written from now
		// on cannot make the gap look whole.
		d.log.Error("the audit checkpoint is "+lost+": entries cut off before now could not be detected; recorded in the audit log", "head", a.head.Seq)
		if err := a.Append(ctx, audit.KindCheckpointLost, map[string]string{audit.FieldReason: lost, audit.FieldCount: fmt.Sprint(a.head.Seq)}); err != nil {
			return nil, fmt.Errorf("audit chain: record the lost checkpoint: %w", err)
		}
	}
	a.stop, err = audit.Serve(d.nc, d.js, key, a.checkpoint, audit.WithUnwritten(a.unwritten.Load))
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Append implements recorder.Auditor.
func (a *auditor) Append(ctx context.Context, kind string, fields map[string]string) error {
	if a == nil {
		return nil
	}
	if err := a.log.Append(ctx, kind, fields); err != nil {
		a.unwritten.Add(1)
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.head = a.log.Head()
	b, err := json.Marshal(audit.Seal(a.key, a.head))
	if err != nil {
		return err
	}
	return writeFileAtomic(a.path, b, 0o600)
}

func (a *auditor) checkpoint() audit.Checkpoint {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.head
}

func (a *auditor) close() {
	if a != nil && a.stop != nil {
		a.stop()
	}
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
