package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/reprise-dev/reprise/replay/rows"
)

// sampleRows is how many rows of a CSV a skill build looks at.
const sampleRows = 50

// readSample reads a CSV's header and its first rows. Errors name the line,
// never a value.
func readSample(path string) (header []string, rows [][]string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("--rows: %w", err)
	}
	defer f.Close()
	return parseSample(f, path)
}

func parseSample(r io.Reader, name string) ([]string, [][]string, error) {
	cr := csv.NewReader(rows.Bound(r))
	cr.ReuseRecord = false
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("%s: the CSV is empty; it needs a header row naming its columns", name)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, csvError(err))
	}
	header[0] = strings.TrimPrefix(header[0], "\ufeff") // a spreadsheet's byte-order mark
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if h == "" {
			return nil, nil, fmt.Errorf("%s: line 1: column %d has no name", name, i+1)
		}
		if seen[h] {
			return nil, nil, fmt.Errorf("%s: line 1: column %q appears twice", name, h)
		}
		seen[h] = true
		header[i] = h
	}
	var rows [][]string
	for len(rows) < sampleRows {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, csvError(err))
		}
		rows = append(rows, rec)
	}
	return header, rows, nil
}

// csvError keeps encoding/csv's line and problem, and drops the rest.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("line %d, column %d: %w", pe.Line, pe.Column, pe.Err)
	}
	return err
}

// readFileMax reads a file the person named, refusing one over max bytes
// before reading further: a device or a pipe has no size to stat, and
// /dev/zero never ends.
func readFileMax(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is over %d bytes, more than such a file ever holds", path, max)
	}
	return b, nil
}
