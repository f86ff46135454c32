package zoo

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Kind is what is wrong with a CSV row.
type Kind int

const (
	// Missing: no record has the row's key.
	Missing Kind = iota + 1
	// Duplicate: more than one record has the row's key.
	Duplicate
	// Mismatch: a stored field differs from what the row's cell means.
	Mismatch
	// Unreadable: the checker cannot read the row (a cell that names no
	// option, a row of the wrong length, a key two rows share).
	Unreadable
)

// String names the kind as a report says it.
func (k Kind) String() string {
	switch k {
	case Missing:
		return "missing"
	case Duplicate:
		return "stored twice"
	case Mismatch:
		return "stored wrong"
	case Unreadable:
		return "unreadable"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Problem is one thing wrong with one CSV row.
type Problem struct {
	Kind Kind
	// Row is the row's index in rows (0-based; its CSV line is Row+2).
	Row int
	// Key is the row's identifying cell.
	Key string
	// Column and Field name what is wrong, for a Mismatch; Column is empty
	// for a field no column fills (Form.Fixed).
	Column, Field string
	// Want and Got are the expected and the stored value, for a Mismatch.
	Want, Got string
	// Detail says more, for the other kinds.
	Detail string
}

// String describes the problem, values included: it is for test output
// about fake data, not for a log line about a person's own rows.
func (p Problem) String() string {
	s := fmt.Sprintf("row %d (%s): %s", p.Row, p.Key, p.Kind)
	if p.Kind == Mismatch {
		col := "no column"
		if p.Column != "" {
			col = "column " + p.Column
		}
		s += fmt.Sprintf(": field %s (%s) holds %q, want %q", p.Field, col, p.Got, p.Want)
	}
	if p.Detail != "" {
		s += ": " + p.Detail
	}
	return s
}

// Report is what Check found.
type Report struct {
	// Problems are rows stored twice, fields stored wrong and rows the
	// checker cannot read: always errors.
	Problems []Problem
	// Missing are rows with no record. The caller decides: a row that
	// reprise reports as failed or skipped should be missing.
	Missing []Problem
	// Unmatched are records that no row claims: the demonstrations, or a
	// row stored under a wrong key (which then is also Missing).
	Unmatched []Record
}

// Check compares the records a form stored with the CSV rows that should
// have made them. It finds each row's records by the form's key column
// (ignoring case) and compares every field with what the row's cell means
// under the column's rule (Column.Rule), and the fields no column fills
// with Form.Fixed. Columns of header that the form does not know are
// ignored; a column the form needs that header lacks is an error.
func Check(form string, header []string, rows [][]string, records []Record) (Report, error) {
	f, err := Lookup(form)
	if err != nil {
		return Report{}, err
	}
	at := map[string]int{}
	for i, h := range header {
		at[h] = i
	}
	for _, c := range f.Columns {
		if _, ok := at[c.Name]; !ok && len(c.Fields) > 0 {
			return Report{}, fmt.Errorf("check %s: the CSV has no column %q (it fills %s)", form, c.Name, strings.Join(c.Fields, ", "))
		}
	}
	keyCol, _ := f.column(f.Key)
	byKey := map[string][]int{}
	for i, r := range records {
		k := strings.ToLower(r.Fields[keyCol.Fields[0]])
		byKey[k] = append(byKey[k], i)
	}
	var rep Report
	claimed := map[int]bool{}
	rowOf := map[string]int{}
	for i, row := range rows {
		key := ""
		if j := at[f.Key]; j < len(row) {
			key = row[j]
		}
		bad := func(detail string) {
			rep.Problems = append(rep.Problems, Problem{Kind: Unreadable, Row: i, Key: key, Detail: detail})
		}
		if len(row) != len(header) {
			bad(fmt.Sprintf("%d cells; the header has %d", len(row), len(header)))
			continue
		}
		want, err := expected(f, at, row)
		if err != nil {
			bad(err.Error())
			continue
		}
		k := strings.ToLower(want[keyCol.Fields[0]])
		if j, ok := rowOf[k]; ok {
			bad(fmt.Sprintf("row %d has the same key", j))
			continue
		}
		rowOf[k] = i
		found := byKey[k]
		switch len(found) {
		case 0:
			rep.Missing = append(rep.Missing, Problem{Kind: Missing, Row: i, Key: key})
			continue
		case 1:
		default:
			ids := make([]string, len(found))
			for n, x := range found {
				ids[n] = fmt.Sprint(records[x].ID)
			}
			rep.Problems = append(rep.Problems, Problem{Kind: Duplicate, Row: i, Key: key,
				Detail: fmt.Sprintf("%d records (IDs %s)", len(found), strings.Join(ids, ", "))})
		}
		for _, x := range found {
			claimed[x] = true
			rep.Problems = append(rep.Problems, compare(f, i, key, want, records[x])...)
		}
	}
	for i, r := range records {
		if !claimed[i] {
			rep.Unmatched = append(rep.Unmatched, r)
		}
	}
	return rep, nil
}

// expected is what a row should make the form store, field by field.
func expected(f *Form, at map[string]int, row []string) (map[string]string, error) {
	want := map[string]string{}
	for _, c := range f.Columns {
		j, ok := at[c.Name]
		if !ok {
			continue
		}
		m, err := c.expect(row[j])
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		maps.Copy(want, m)
	}
	return want, nil
}

// compare reports each field of rec that differs from want or Form.Fixed.
func compare(f *Form, i int, key string, want map[string]string, rec Record) []Problem {
	var out []Problem
	check := func(fieldName, column, w string, same func(w, got string) bool) {
		got := rec.Fields[fieldName]
		if same == nil && got != w || same != nil && !same(w, got) {
			out = append(out, Problem{Kind: Mismatch, Row: i, Key: key, Column: column, Field: fieldName, Want: w, Got: got,
				Detail: fmt.Sprintf("record %d", rec.ID)})
		}
	}
	for _, c := range f.Columns {
		for _, fd := range c.Fields {
			if w, ok := want[fd]; ok {
				check(fd, c.Name, w, c.same)
			}
		}
	}
	for _, fd := range slices.Sorted(maps.Keys(f.Fixed)) {
		check(fd, "", f.Fixed[fd], nil)
	}
	return out
}
