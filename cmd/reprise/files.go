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

// readNamed reads what the person named, a file or stdin for "-",
// refusing more than max bytes before reading further: a device or a pipe
// has no size to stat, and /dev/zero never ends.
func readNamed(stdin io.Reader, path string, max int64) ([]byte, error) {
	r, name := stdin, "standard input"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, name = f, path
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is over %d bytes, more than such a file ever holds", name, max)
	}
	return b, nil
}
