package report

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

var csvHeader = []string{"row", "outcome", "step", "action", "reason", "via", "output", "files", "notes", "healed", "model_calls", "tokens", "proofs"}

// oldColumns and modelColumns are how many columns a report had before the
// model's and before the proofs: such a report still reads.
const (
	oldColumns   = 9
	modelColumns = 12
)

// document is the JSON report: the counts a script checks first, then rows.
type document struct {
	Summary struct {
		Committed int `json:"committed"`
		Failed    int `json:"failed"`
		Skipped   int `json:"skipped"`
		Unknown   int `json:"unknown"`
	} `json:"summary"`
	Rows []Row `json:"rows"`
}

func writeJSON(w io.Writer, rows []Row) error {
	var d document
	d.Summary.Committed, d.Summary.Failed, d.Summary.Skipped, d.Summary.Unknown = Summary(rows)
	d.Rows = rows
	if d.Rows == nil {
		d.Rows = []Row{}
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(d)
}

func readJSON(r io.Reader) ([]Row, error) {
	var d document
	if err := json.NewDecoder(r).Decode(&d); err != nil {
		return nil, err
	}
	return d.Rows, nil
}

// writeCSV writes one line per row; a row with no failing step has an
// empty step cell, which a spreadsheet shows better than 0.
func writeCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	for _, r := range rows {
		step := ""
		if r.Step > 0 {
			step = strconv.Itoa(r.Step)
		}
		cw.Write([]string{strconv.Itoa(r.N), defuse(r.Outcome), step, defuse(r.Action), defuse(r.Reason), defuse(r.Via),
			defuse(r.Output), defuse(strings.Join(r.Files, "\n")), defuse(strings.Join(r.Notes, "\n")),
			defuse(strings.Join(r.Healed, "\n")), count(r.ModelCalls), count(r.Tokens), defuse(strings.Join(r.Proofs, "\n"))})
	}
	cw.Flush()
	return cw.Error()
}

func readCSV(r io.Reader) ([]Row, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 || !slices.Equal(recs[0], csvHeader) && !slices.Equal(recs[0], csvHeader[:modelColumns]) && !slices.Equal(recs[0], csvHeader[:oldColumns]) {
		return nil, errors.New("not a report: the header is not " + strings.Join(csvHeader, ","))
	}
	rows := make([]Row, 0, len(recs)-1)
	for i, rec := range recs[1:] {
		n, err := strconv.Atoi(rec[0])
		if err != nil {
			return nil, fmt.Errorf("line %d: the row is not a number", i+2)
		}
		step := 0
		if rec[2] != "" {
			if step, err = strconv.Atoi(rec[2]); err != nil {
				return nil, fmt.Errorf("line %d: the step is not a number", i+2)
			}
		}
		row := Row{N: n, Outcome: arm(rec[1]), Step: step, Action: arm(rec[3]), Reason: arm(rec[4]), Via: arm(rec[5]),
			Output: arm(rec[6]), Files: lines(arm(rec[7])), Notes: lines(arm(rec[8]))}
		if len(rec) > oldColumns {
			row.Healed = lines(arm(rec[9]))
			if row.ModelCalls, err = uncount(rec[10]); err != nil {
				return nil, fmt.Errorf("line %d: model_calls is not a number", i+2)
			}
			if row.Tokens, err = uncount(rec[11]); err != nil {
				return nil, fmt.Errorf("line %d: tokens is not a number", i+2)
			}
		}
		if len(rec) > modelColumns {
			row.Proofs = lines(arm(rec[12]))
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// defuse keeps a spreadsheet from running a cell as a formula: a reason
// may quote what a page showed, and a page can show "=HYPERLINK(...)". A
// cell that starts with a formula sign after any leading apostrophes gets
// one more apostrophe, which spreadsheets hide and arm removes.
func defuse(s string) string {
	if formula(s) {
		return "'" + s
	}
	return s
}

func arm(s string) string {
	if strings.HasPrefix(s, "'") && formula(s) {
		return s[1:]
	}
	return s
}

func formula(s string) bool {
	s = strings.TrimLeft(s, "'")
	return s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0]))
}

// lines splits a cell of one item per line; an empty cell is none.
func lines(cell string) []string {
	if cell == "" {
		return nil
	}
	return strings.Split(cell, "\n")
}

// count writes a count, empty for none.
func count(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func uncount(cell string) (int, error) {
	if cell == "" {
		return 0, nil
	}
	return strconv.Atoi(cell)
}
