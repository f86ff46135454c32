package zoo

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestPersonFillsEveryForm is the zoo proving itself: for every form the
// person files the two demonstrations and three generated rows in a real
// Chromium, and the checker finds each stored once with every field right;
// then a tampered field and a duplicate must both be reported.
func TestPersonFillsEveryForm(t *testing.T) {
	site := Serve()
	t.Cleanup(site.Close)
	forms := Forms()
	names := make([]string, len(forms))
	for i, f := range forms {
		names[i] = f.Name
	}
	// The slow save-in-place form first, so it does not finish last.
	slices.SortStableFunc(names, func(a, b string) int { return boolInt(b == saveInPlace.Name) - boolInt(a == saveInPlace.Name) })
	wide(t, names, func(t *testing.T, i int) {
		{
			f, _ := Lookup(names[i])
			ctx := tab(t)
			demos := f.Demos()
			header, generated := f.Rows(3, 7)
			rows := append([][]string{demos[0], demos[1]}, generated...)
			for i, row := range rows {
				pctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // a bound on a hang, not speed
				err := f.Person(pctx, site.URL(), row)
				cancel()
				if err != nil {
					t.Fatalf("row %d: %v", i, err)
				}
			}
			records := site.Records(f.Name)
			rep, err := Check(f.Name, header, rows, records)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Problems)+len(rep.Missing)+len(rep.Unmatched) > 0 || len(records) != len(rows) {
				t.Fatalf("after %d rows, %d records:\nproblems %v\nmissing %v\nunmatched %v", len(rows), len(records), rep.Problems, rep.Missing, rep.Unmatched)
			}

			// Tamper: one wrong field in row 2's record, row 3 stored twice.
			victim := tamperable(f)
			site.mu.Lock()
			site.records[f.Name][2].Fields[victim] += "!"
			site.mu.Unlock()
			site.store(f.Name, records[3].Fields)
			rep, err = Check(f.Name, header, rows, site.Records(f.Name))
			if err != nil {
				t.Fatal(err)
			}
			want := []Problem{
				{Kind: Mismatch, Row: 2, Field: victim},
				{Kind: Duplicate, Row: 3},
			}
			got := make([]Problem, len(rep.Problems))
			for i, p := range rep.Problems {
				got[i] = Problem{Kind: p.Kind, Row: p.Row, Field: p.Field}
			}
			if !slices.Equal(got, want) || len(rep.Missing) > 0 {
				t.Errorf("after tampering: problems %v, missing %v; want a mismatch in %s of row 2 and row 3 stored twice", rep.Problems, rep.Missing, victim)
			}
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tamperable is a stored field of the form other than its key's.
func tamperable(f *Form) string {
	key, _ := f.column(f.Key)
	for _, c := range f.Columns {
		if len(c.Fields) > 0 && c.Fields[0] != key.Fields[0] {
			return c.Fields[0]
		}
	}
	return ""
}
