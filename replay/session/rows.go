package session

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// Unaccounted returns the header's columns that no parameter reads and
// neither the skill nor ignored leaves out.
func Unaccounted(skill *skills.Skill, header, ignored []string) []string {
	known := map[string]bool{}
	for _, p := range skill.Parameters {
		known[p.Column] = true
	}
	for _, ig := range skill.Ignore {
		known[ig.Column] = true
	}
	for _, c := range ignored {
		known[strings.TrimSpace(c)] = true
	}
	var out []string
	for _, h := range header {
		if h = strings.TrimSpace(h); h != "" && !known[h] {
			out = append(out, h)
		}
	}
	return out
}

// DefaultKeepRuns is how many runs' artifacts are kept when the caller
// does not say.
const DefaultKeepRuns = 20

// PruneRuns keeps the newest keep run folders under root (downloads and
// screenshots of runs/<run>) and removes the rest, never current. Run ids
// start with their UTC time, so their names sort oldest first.
func PruneRuns(root string, keep int, current string) error {
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
	keep = max(cmp.Or(keep, DefaultKeepRuns)-1, 0) // the current run is one of them
	for len(runs) > keep {
		if err := os.RemoveAll(filepath.Join(root, runs[0])); err != nil {
			return fmt.Errorf("remove the artifacts of run %s: %w", runs[0], err)
		}
		runs = runs[1:]
	}
	return nil
}
