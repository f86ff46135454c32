// Package report writes the per-row report that ends a replay run (SPEC
// 11): what happened to each row, and at which step a row stopped and why.
// The reasons come from the engine and name steps, selectors and checks,
// never a field value; this package adds none either.
package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Outcomes of a row.
const (
	Committed = "committed" // filed and read back
	Failed    = "failed"    // stopped at Step for Reason; nothing was filed
	Skipped   = "skipped"   // filed by an earlier run
	Unknown   = "unknown"   // its submit may have run without being confirmed: the person checks
	DryRun    = "dry_run"   // filled but, by request, not submitted
)

// ErrFormat is returned for a path whose extension names no report format.
var ErrFormat = errors.New("unknown report format")

// Row is what happened to one CSV row.
type Row struct {
	N       int    `json:"n"`       // the CSV data row, from 1
	Outcome string `json:"outcome"` // one of the outcomes above
	Step    int    `json:"step"`    // the number of the step it stopped at, from 1; 0 for none
	Action  string `json:"action,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Via     string `json:"via,omitempty"` // how the last step found its element
	// Output is the file the row downloaded as its output; Files are
	// every file saved for the row (downloads, screenshots).
	Output string   `json:"output,omitempty"`
	Files  []string `json:"files,omitempty"`
	// Notes say what the browser did around the row: requests blocked,
	// dialogs accepted, pages refused.
	Notes []string `json:"notes,omitempty"`
	// Healed says what a model changed for the row to go through (a step
	// found by another element, an action inserted before a step): the
	// row is marked healed. Elements are named by role and name, typed
	// text by placeholder, never a value.
	Healed []string `json:"healed,omitempty"`
	// ModelCalls and Tokens count the model requests the row cost.
	ModelCalls int `json:"model_calls,omitempty"`
	Tokens     int `json:"tokens,omitempty"`
	// Proofs say what proves a committed row filed as the CSV says: the
	// row read back whole right before its destructive step, the site's
	// success signal after it: docs/replay.md, "What committed proves".
	Proofs []string `json:"proofs,omitempty"`
}

// Summary counts the rows by outcome; dry_run rows count in none.
func Summary(rows []Row) (committed, failed, skipped, unknown int) {
	for _, r := range rows {
		switch r.Outcome {
		case Committed:
			committed++
		case Failed:
			failed++
		case Skipped:
			skipped++
		case Unknown:
			unknown++
		}
	}
	return committed, failed, skipped, unknown
}

// Write writes rows to path as CSV or JSON, by its extension (.csv, .json).
// The report is readable by its owner only (0600), and written to a temp
// file renamed into place, so a crash leaves the old report or the new one,
// never half of one.
func Write(path string, rows []Row) error {
	var encode func(io.Writer, []Row) error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		encode = writeCSV
	case ".json":
		encode = writeJSON
	default:
		return fmt.Errorf("%w: %q: name the report file .csv or .json", ErrFormat, filepath.Base(path))
	}
	for _, r := range rows {
		switch r.Outcome {
		case Committed, Failed, Skipped, Unknown, DryRun:
		default:
			return fmt.Errorf("write report: row %d has outcome %q, which is not a report outcome", r.N, r.Outcome)
		}
	}
	return writeAtomic(path, func(f *os.File) error { return encode(f, rows) })
}

// Read reads a report Write wrote, by the same extension rule.
func Read(path string) ([]Row, error) {
	var decode func(io.Reader) ([]Row, error)
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		decode = readCSV
	case ".json":
		decode = readJSON
	default:
		return nil, fmt.Errorf("%w: %q: a report file is .csv or .json", ErrFormat, filepath.Base(path))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	defer f.Close()
	rows, err := decode(f)
	if err != nil {
		return nil, fmt.Errorf("read report %s: %w", path, err)
	}
	return rows, nil
}

// CheckPath says, before a run, whether Write could write a report to
// path: a .csv or .json name in a directory that exists and takes a file.
func CheckPath(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".json":
	default:
		return fmt.Errorf("%w: %q: name the report file .csv or .json", ErrFormat, filepath.Base(path))
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	f, err := os.CreateTemp(dir, ".reprise-report-check-*")
	if err != nil {
		return fmt.Errorf("the report cannot be written in %s: %w", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

func writeAtomic(path string, write func(*os.File) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// The same directory keeps the rename atomic; CreateTemp makes the
	// file 0600, the mode the report keeps.
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("write report %s: %w", path, err)
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
