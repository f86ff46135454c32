package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPruneRunsKeepsTheNewest(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	names := []string{
		"run_20261201T100000_0000000000000001", "run_20261201T110000_0000000000000002",
		"run_20261202T090000_0000000000000003", "run_20261202T100000_0000000000000004",
		"not-a-run",
	}
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(root, n, "row-1"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	current := "run_20261202T120000_0000000000000005"
	if err := PruneRuns(root, 3, current); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(root)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := "not-a-run,run_20261202T090000_0000000000000003,run_20261202T100000_0000000000000004"
	if strings.Join(left, ",") != want {
		t.Errorf("left %v; want %s (the two newest, and what is no run's)", left, want)
	}
	if err := PruneRuns(filepath.Join(root, "none"), 3, current); err != nil {
		t.Errorf("no runs folder yet: %v", err)
	}
}
