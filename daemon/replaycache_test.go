package daemon

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenReplayCache: a data dir's replay cache opens without a daemon,
// under the data dir's machine id, and opens again under the same key.
func TestOpenReplayCache(t *testing.T) {
	home := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	c, err := OpenReplayCache(home, "new-customer", log)
	if err != nil || len(c.Entries()) != 0 {
		t.Fatalf("OpenReplayCache(new data dir) = %v; want an empty cache", err)
	}
	if _, err := os.Stat(filepath.Join(home, machineIDFile)); err != nil {
		t.Errorf("OpenReplayCache() left no machine id: %v", err)
	}
	if _, err := OpenReplayCache(home, "new-customer", log); err != nil {
		t.Errorf("OpenReplayCache() again = %v; want the same cache", err)
	}
}
