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
	path string

	mu   sync.Mutex
	head audit.Checkpoint
	stop func()
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
	a := &auditor{log: l, path: filepath.Join(d.home, checkpointFile), head: l.Head()}
	if saved, err := readCheckpoint(a.path); err != nil {
		d.log.Warn("audit checkpoint unreadable; truncation before now cannot be detected", "err", err)
	} else if saved.Seq > a.head.Seq {
		a.head = saved // the stream lost entries while the daemon was down: verify will say so
	}
	a.stop, err = audit.Serve(d.nc, d.js, key, a.checkpoint)
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
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.head = a.log.Head()
	b, err := json.Marshal(a.head)
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

func readCheckpoint(path string) (audit.Checkpoint, error) {
	var cp audit.Checkpoint
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cp, nil
	}
	if err != nil {
		return cp, err
	}
	if err := json.Unmarshal(b, &cp); err != nil {
		return cp, fmt.Errorf("%s is malformed: %w", path, err)
	}
	return cp, nil
}
