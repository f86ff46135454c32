package zoo

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
)

func TestCheck(t *testing.T) {
	header := []string{"lead_name", "email", "phone_number", "zip", "call_time"}
	rows := [][]string{
		{"Ada", "ada@example.com", "555-123-4567", "02134", "evening"},
		{"Bob", "bob@example.com", "+1 (555) 765 4321", "90210", "morning"},
	}
	good := func(id int, name, email, phone, zip, when string) Record {
		return Record{ID: id, Fields: map[string]string{"name": name, "email": email, "phone": phone, "zip": zip, "best_time": when, "source": "web"}}
	}
	ada := good(1, "Ada", "ada@example.com", "(555) 123-4567", "02134", "evening")
	bob := good(2, "Bob", "bob@example.com", "(555) 765-4321", "90210", "morning")
	with := func(r Record, field, v string) Record {
		r.Fields = maps.Clone(r.Fields)
		r.Fields[field] = v
		return r
	}
	demo := good(9, "Demo", "demo@demo.example.org", "(555) 000-0000", "00000", "evening")

	for _, tc := range []struct {
		name      string
		rows      [][]string
		records   []Record
		problems  []string // Problem.String() of each
		missing   []int
		unmatched []int // record IDs
	}{
		{name: "all stored once", records: []Record{bob, demo, ada}, unmatched: []int{9}},
		{name: "key in another case is found, and wrong", records: []Record{with(ada, "email", "ADA@example.com"), bob},
			problems: []string{`row 0 (ada@example.com): stored wrong: field email (column email) holds "ADA@example.com", want "ada@example.com": record 1`}},
		{name: "missing row", records: []Record{bob}, missing: []int{0}},
		{name: "stored twice", records: []Record{ada, bob, {ID: 3, Fields: bob.Fields}},
			problems: []string{`row 1 (bob@example.com): stored twice: 2 records (IDs 2, 3)`}},
		{name: "wrong field", records: []Record{with(ada, "best_time", "morning"), bob},
			problems: []string{`row 0 (ada@example.com): stored wrong: field best_time (column call_time) holds "morning", want "evening": record 1`}},
		{name: "phone kept unformatted", records: []Record{with(ada, "phone", "5551234567"), bob},
			problems: []string{`row 0 (ada@example.com): stored wrong: field phone (column phone_number) holds "5551234567", want "(555) 123-4567": record 1`}},
		{name: "fixed field changed", records: []Record{with(ada, "source", "event"), bob},
			problems: []string{`row 0 (ada@example.com): stored wrong: field source (no column) holds "event", want "web": record 1`}},
		{name: "cell names no option", rows: [][]string{{"Ada", "ada@example.com", "555-123-4567", "02134", "noon"}}, records: []Record{ada},
			problems: []string{`row 0 (ada@example.com): unreadable: column call_time: "noon" names no option`}, unmatched: []int{1}},
		{name: "short row", rows: [][]string{{"Ada", "ada@example.com"}}, records: []Record{ada},
			problems: []string{`row 0 (ada@example.com): unreadable: 2 cells; the header has 5`}, unmatched: []int{1}},
		{name: "two rows one key", rows: [][]string{rows[0], rows[0]}, records: []Record{ada},
			problems: []string{`row 1 (ada@example.com): unreadable: row 0 has the same key`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := rows
			if tc.rows != nil {
				rs = tc.rows
			}
			rep, err := Check("phone", header, rs, tc.records)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]string, len(rep.Problems))
			for i, p := range rep.Problems {
				got[i] = p.String()
			}
			var missing, unmatched []int
			for _, p := range rep.Missing {
				missing = append(missing, p.Row)
			}
			for _, r := range rep.Unmatched {
				unmatched = append(unmatched, r.ID)
			}
			if !slices.Equal(got, tc.problems) || !slices.Equal(missing, tc.missing) || !slices.Equal(unmatched, tc.unmatched) {
				t.Errorf("Check = problems %q, missing %v, unmatched %v;\nwant %q, %v, %v", got, missing, unmatched, tc.problems, tc.missing, tc.unmatched)
			}
		})
	}
}

func TestCheckRefusesWhatItCannotJudge(t *testing.T) {
	if _, err := Check("no-such-form", nil, nil, nil); !errors.Is(err, ErrUnknownForm) {
		t.Errorf("Check(no-such-form) error = %v; want ErrUnknownForm", err)
	}
	_, err := Check("phone", []string{"lead_name", "email"}, nil, nil)
	if want := `check phone: the CSV has no column "phone_number" (it fills phone)`; fmt.Sprint(err) != want {
		t.Errorf("Check without a needed column: error = %v; want %s", err, want)
	}
}
