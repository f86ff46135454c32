package interop

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reprise-dev/reprise/replay/rows"
	"github.com/reprise-dev/reprise/skills"
)

// RowsError: the data row to fill a flow with is past the CSV's last.
type RowsError struct{ Row, Rows int }

func (e *RowsError) Error() string {
	return fmt.Sprintf("row %d: the CSV has %d data rows", e.Row, e.Rows)
}

// Export writes the skill document doc in format (one of ExportFormats):
// as it is, as a Chrome Recorder flow filled with data row row (from 1) of
// the CSV at csvPath, or as a script that reads that CSV, named from the
// folder of output (the file it will be written to; "" or "-" for
// standard output). Notes say what the format could not keep.
func Export(format string, doc []byte, csvPath string, row int, output string) ([]byte, []string, error) {
	if format == ExportReprise {
		return doc, nil, nil
	}
	s, err := skills.Parse(doc)
	if err != nil {
		return nil, nil, err
	}
	if format == ExportChromeRecorder {
		table, err := rows.Open(csvPath, s)
		if err != nil {
			return nil, nil, err
		}
		if row > len(table.Rows) {
			return nil, nil, &RowsError{Row: row, Rows: len(table.Rows)}
		}
		values, err := table.Rows[row-1].Fill(s)
		if err != nil {
			return nil, nil, err
		}
		return ChromeRecorder(s, values)
	}
	// The script reads the CSV where it is, named from the script's folder.
	if _, err := rows.Open(csvPath, s); err != nil {
		return nil, nil, err
	}
	o := ExportOptions{CSV: csvPath}
	if abs, err := filepath.Abs(csvPath); err == nil {
		o.CSV = abs
		if output != "" && output != "-" {
			if dir, err := filepath.Abs(filepath.Dir(output)); err == nil {
				if rel, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
					o.CSV = rel
				}
			}
		}
	}
	var b []byte
	if format == ExportPlaywright {
		b, err = Playwright(s, o)
	} else {
		b, err = PuppeteerReplay(s, o)
	}
	return b, nil, err
}
