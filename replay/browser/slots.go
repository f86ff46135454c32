package browser

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/internal/flock"
)

// MaxOpenEnv is the host's bound on the browsers reprise keeps open at
// once, across every process of this user (replays, workers, dry runs):
// a launch past it waits for one to close. Unset or 0: no bound.
const MaxOpenEnv = "REPRISE_BROWSER_MAX_OPEN"

// maxOpen reads MaxOpenEnv.
func maxOpen() (int, error) {
	v := strings.TrimSpace(os.Getenv(MaxOpenEnv))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%q: want a whole number of browsers, 0 for no bound", MaxOpenEnv, v)
	}
	return n, nil
}

// slotDir holds one lock file per browser that may be open: a launch holds
// one until its browser has exited. The OS releases a lock whose holder
// died, so a crash frees its slot.
func slotDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("reprise-browsers-%d", os.Getuid()))
}

// takeSlot waits, until ctx ends, for one of the host's max browser
// slots; nil when there is no bound.
func takeSlot(ctx context.Context, log *slog.Logger) (*flock.Lock, error) {
	max, err := maxOpen()
	if err != nil || max == 0 {
		return nil, err
	}
	dir := slotDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("browser slots: %w", err)
	}
	note := fmt.Sprintf("pid %d", os.Getpid())
	for waited := false; ; waited = true {
		for i := range max {
			l, err := flock.Take(filepath.Join(dir, fmt.Sprintf("slot-%d.lock", i)), note)
			if err == nil {
				if waited {
					log.Info("a browser slot is free", "max_open", max)
				}
				return l, nil
			}
		}
		if !waited {
			log.Info("waiting for a browser to close: this host keeps at most this many open", "max_open", max, "env", MaxOpenEnv)
		}
		// A lock has no event to wait on across processes: look again soon.
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for one of the %d browsers this host allows (%s) to close: %w", max, MaxOpenEnv, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}
