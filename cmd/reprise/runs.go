package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/reprise-dev/reprise/events"
)

// defaultKeepRuns is how many runs' artifacts are kept when config.json
// does not say.
const defaultKeepRuns = 20

// pruneRuns keeps the newest keep run folders under root (downloads and
// screenshots of runs/<run>) and removes the rest, never current. Run ids
// start with their UTC time, so their names sort oldest first.
func pruneRuns(root string, keep int, current string) error {
	entries, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("run artifacts: %w", err)
	}
	var runs []string
	for _, e := range entries {
		if e.IsDir() && events.ValidRunID(e.Name()) && e.Name() != current {
			runs = append(runs, e.Name())
		}
	}
	slices.Sort(runs)
	keep = max(cmp.Or(keep, defaultKeepRuns)-1, 0) // the current run is one of them
	for len(runs) > keep {
		if err := os.RemoveAll(filepath.Join(root, runs[0])); err != nil {
			return fmt.Errorf("remove the artifacts of run %s: %w", runs[0], err)
		}
		runs = runs[1:]
	}
	return nil
}
