package main

import (
	"fmt"
	"io"
	"os"

	"github.com/reprise-dev/reprise/replay/rows"
)

// readSample reads the header and first rows of the CSV --rows names.
func readSample(path string) (header []string, sample [][]string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("--rows: %w", err)
	}
	defer f.Close()
	return rows.ReadSample(f, path)
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
