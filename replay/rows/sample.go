package rows

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// SampleRows is how many rows of a CSV a skill build looks at.
const SampleRows = 50

// ReadSample reads a CSV's header and its first SampleRows rows, the sample
// a skill is built against: no skill is known yet, so nothing is checked
// but the header's names. name labels the errors; they name the line,
// never a value.
func ReadSample(r io.Reader, name string) (header []string, rows [][]string, err error) {
	cr := csv.NewReader(Bound(r))
	cr.ReuseRecord = false
	header, err = cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("%s: the CSV is empty; it needs a header row naming its columns", name)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, sampleError(err))
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
	for len(rows) < SampleRows {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, sampleError(err))
		}
		rows = append(rows, rec)
	}
	return header, rows, nil
}

// sampleError keeps encoding/csv's line and problem, and drops the rest.
func sampleError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("line %d, column %d: %w", pe.Line, pe.Column, pe.Err)
	}
	return err
}
