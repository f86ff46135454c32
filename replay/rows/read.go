// Package rows reads the CSV a replay run fills (SPEC section 11): one row
// per run of the skill, its values joined to the skill's parameters by
// column. Every error names files, lines, rows, parameters and columns, and
// never a value: errors go to logs and reports, values stay in the CSV.
package rows

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/reprise-dev/reprise/skills"
)

// Limits on what Read accepts. A run of more rows belongs split across
// runs; a bigger cell is not a form value but a file pasted by mistake.
const (
	MaxRows      = 1_000_000
	MaxFieldSize = 1 << 20
)

// Errors callers branch on; the returned errors wrap them with the file,
// the line and what to do.
var (
	ErrEmpty   = errors.New("the CSV is empty")
	ErrNoRows  = errors.New("the CSV has no rows")
	ErrFormat  = errors.New("the CSV is malformed")
	ErrTooBig  = errors.New("the CSV is too big")
	ErrHeader  = errors.New("the CSV header is not usable")
	ErrBadCell = errors.New("the CSV holds text that is not a form value")
)

// Table is a CSV read for a skill.
type Table struct {
	Header []string // the column names, spaces trimmed, in file order
	Rows   []Row
}

// Row is one data row.
type Row struct {
	// N is the 1-based number of the data record in the file, the header
	// not counted. Blank records are skipped but still counted, so N stays
	// the person's row number however the file is padded.
	N int
	// Line is the file line the row starts on (a quoted cell may span lines).
	Line int
	// Values maps each skill parameter's name to its column's cell, with
	// the surrounding spaces a spreadsheet does not show removed.
	Values map[string]string
	// Dir is the CSV's folder, which a file cell's relative paths are
	// under; empty when the rows were not read from a file.
	Dir string
}

// Open reads the CSV at path for skill; see Read.
func Open(path string, skill *skills.Skill) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open the rows CSV: %w", err)
	}
	defer f.Close()
	t, err := Read(f, path, skill)
	if err != nil {
		return nil, err
	}
	if dir, err := filepath.Abs(filepath.Dir(path)); err == nil {
		for i := range t.Rows {
			t.Rows[i].Dir = dir
		}
	}
	return t, nil
}

// Read reads an RFC 4180 CSV in UTF-8 (a byte-order mark is allowed) whose
// first record is a header naming the columns. It checks the header against
// skill before reading any row, so a missing column fails at once; name
// labels the errors (usually the path). Rows are not type-checked here: see
// Row.Check, so one bad row fails alone rather than the whole run.
func Read(r io.Reader, name string, skill *skills.Skill) (*Table, error) {
	br := bufio.NewReader(Bound(r))
	if err := skipBOM(br, name); err != nil {
		return nil, err
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1 // ragged rows get our error, which names the header width
	cr.ReuseRecord = true

	rec, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: %w: it needs a header row naming the columns (%s) and then one row per run",
			name, ErrEmpty, columnList(skill))
	}
	if err != nil {
		return nil, parseErr(name, err)
	}
	header, err := readHeader(cr, rec, name)
	if err != nil {
		return nil, err
	}
	if err := skill.CheckHeader(header); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	col := make(map[string]int, len(header))
	for i, h := range header {
		col[h] = i
	}

	t := &Table{Header: header}
	for n := 1; ; n++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, parseErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		if err := checkRecord(cr, rec, name); err != nil {
			return nil, err
		}
		if len(rec) != len(header) {
			return nil, fmt.Errorf("%s: %w: line %d (row %d) has %d fields but the header has %d: check for a missing or extra comma, or a cell with a comma that is not in double quotes",
				name, ErrFormat, line, n, len(rec), len(header))
		}
		if blank(rec) {
			continue
		}
		if len(t.Rows) == MaxRows {
			return nil, fmt.Errorf("%s: %w: more than %d rows: split it into several files and run each",
				name, ErrTooBig, MaxRows)
		}
		vals := make(map[string]string, len(skill.Parameters))
		for _, p := range skill.Parameters {
			vals[p.Name] = strings.TrimSpace(rec[col[p.Column]])
		}
		t.Rows = append(t.Rows, Row{N: n, Line: line, Values: vals})
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("%s: %w: it has a header but no row below it: add one row per run", name, ErrNoRows)
	}
	return t, nil
}

// skipBOM drops a UTF-8 byte-order mark, as Excel writes one, and refuses
// UTF-16, which spreadsheets also offer and which csv would misread.
func skipBOM(br *bufio.Reader, name string) error {
	b, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(b, []byte("\xef\xbb\xbf")):
		_, err := br.Discard(3)
		return err
	case bytes.HasPrefix(b, []byte("\xff\xfe")), bytes.HasPrefix(b, []byte("\xfe\xff")):
		return fmt.Errorf("%s: %w: the file is UTF-16: save it as \"CSV UTF-8\"", name, ErrBadCell)
	}
	return nil
}

func readHeader(cr *csv.Reader, rec []string, name string) ([]string, error) {
	if err := checkRecord(cr, rec, name); err != nil {
		return nil, err
	}
	header := make([]string, len(rec))
	seen := make(map[string]int, len(rec))
	for i, h := range rec {
		h = strings.TrimSpace(h)
		if h == "" {
			return nil, fmt.Errorf("%s: %w: column %d of the header row has no name: name every column", name, ErrHeader, i+1)
		}
		if j, ok := seen[h]; ok {
			return nil, fmt.Errorf("%s: %w: columns %d and %d are both named %q: give each column its own name",
				name, ErrHeader, j+1, i+1, h)
		}
		seen[h] = i
		header[i] = h
	}
	return header, nil
}

// checkRecord refuses cells that are too big, not UTF-8, or hold a NUL
// byte, which means a binary or UTF-16 file, naming the line of the fault.
func checkRecord(cr *csv.Reader, rec []string, name string) error {
	for i, f := range rec {
		line, _ := cr.FieldPos(i)
		if len(f) > MaxFieldSize {
			return fmt.Errorf("%s: %w: the cell starting on line %d, column %d, is over %d bytes: a form value is shorter; check the quotes around it",
				name, ErrTooBig, line, i+1, MaxFieldSize)
		}
		if bad := badByte(f); bad >= 0 {
			line += strings.Count(f[:bad], "\n")
			if f[bad] == 0 {
				return fmt.Errorf("%s: %w: line %d holds a NUL byte, which no form value has: is it a binary or UTF-16 file? Save it as \"CSV UTF-8\"", name, ErrBadCell, line)
			}
			return fmt.Errorf("%s: %w: line %d is not UTF-8: save the file as \"CSV UTF-8\"", name, ErrBadCell, line)
		}
	}
	return nil
}

// badByte is the index of the first invalid UTF-8 or NUL byte in s, or -1.
func badByte(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0 || (r == utf8.RuneError && size == 1) {
			return i
		}
		i += size
	}
	return -1
}

// parseErr turns encoding/csv's error into one a person can act on.
func parseErr(name string, err error) error {
	var pe *csv.ParseError
	if errors.Is(err, ErrTooBig) {
		return fmt.Errorf("%s: %w", name, err)
	}
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: read: %w", name, err)
	}
	hint := "check the quotes on that line"
	switch {
	case errors.Is(pe.Err, csv.ErrQuote):
		hint = "a quoted cell is not closed, or a quote inside it is not doubled (write \"\" for a quote)"
	case errors.Is(pe.Err, csv.ErrBareQuote):
		hint = "a cell holds a quote but is not itself in double quotes: quote the cell and double the quote inside it"
	}
	if pe.StartLine != pe.Line {
		return fmt.Errorf("%s: %w: the record starting on line %d, at line %d column %d: %s",
			name, ErrFormat, pe.StartLine, pe.Line, pe.Column, hint)
	}
	return fmt.Errorf("%s: %w: line %d, column %d: %s", name, ErrFormat, pe.Line, pe.Column, hint)
}

func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// columnList names the columns the skill needs, for the empty-file error.
func columnList(skill *skills.Skill) string {
	if len(skill.Parameters) == 0 {
		return "the skill needs none"
	}
	cols := make([]string, len(skill.Parameters))
	for i, p := range skill.Parameters {
		cols[i] = fmt.Sprintf("%q", p.Column)
	}
	return strings.Join(cols, ", ")
}
