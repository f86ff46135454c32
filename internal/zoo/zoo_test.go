package zoo

import (
	"bytes"
	"encoding/csv"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestFormsAreDescribed holds the promises the end-to-end test relies on:
// at least 13 forms, headers that are not the labels, a key column, demos
// that differ in every choice control on at least 7 forms and say where
// they do not on the others, and a column no field uses somewhere.
func TestFormsAreDescribed(t *testing.T) {
	forms := Forms()
	if len(forms) < 13 {
		t.Fatalf("Forms() has %d forms; want at least 13", len(forms))
	}
	differ, unused := 0, 0
	for _, f := range forms {
		labels := map[string]bool{}
		for _, fd := range f.fields {
			labels[strings.ToLower(fd.label)] = true
		}
		for _, c := range f.Columns {
			if labels[strings.ToLower(c.Name)] {
				t.Errorf("%s: column %q reads like the field's label", f.Name, c.Name)
			}
			for _, fd := range c.Fields {
				if _, ok := f.fieldNamed(fd); !ok {
					t.Errorf("%s: column %q fills %q, which the form does not store", f.Name, c.Name, fd)
				}
			}
			if len(c.Fields) == 0 {
				unused++
			}
		}
		if c, ok := f.column(f.Key); !ok || len(c.Fields) != 1 {
			t.Errorf("%s: key column %q does not fill one field", f.Name, f.Key)
		}
		for _, fd := range f.fields {
			filled := slices.ContainsFunc(f.Columns, func(c Column) bool { return slices.Contains(c.Fields, fd.name) })
			if _, fixed := f.Fixed[fd.name]; filled == fixed {
				t.Errorf("%s: field %s is filled by a column: %v, fixed: %v; want exactly one", f.Name, fd.name, filled, fixed)
			}
		}
		same := sameChoices(t, f)
		if !slices.Equal(same, slices.Sorted(slices.Values(f.SameChoice))) {
			t.Errorf("%s: the demos agree in the choice fields %v; SameChoice says %v", f.Name, same, f.SameChoice)
		}
		if len(same) == 0 {
			differ++
		}
	}
	if differ < 7 {
		t.Errorf("%d forms have demos that differ in every choice control; want at least 7", differ)
	}
	if unused == 0 {
		t.Error("no form has a CSV column that no field uses")
	}
}

// sameChoices returns the choice fields (and fixed fields) where the two
// demonstrations store the same value.
func sameChoices(t *testing.T, f *Form) []string {
	t.Helper()
	at := map[string]int{}
	for i, h := range f.Header() {
		at[h] = i
	}
	var want [2]map[string]string
	for i, d := range f.Demos() {
		m, err := expected(f, at, d)
		if err != nil {
			t.Fatalf("%s: demo %d: %v", f.Name, i, err)
		}
		want[i] = m
	}
	var same []string
	for _, c := range f.Columns {
		for _, fd := range c.Fields {
			if c.Choice && want[0][fd] == want[1][fd] {
				same = append(same, fd)
			}
		}
	}
	for fd := range f.Fixed {
		if fd2, _ := f.fieldNamed(fd); fd2.check != nil { // a fixed choice control
			same = append(same, fd)
		}
	}
	slices.Sort(same)
	return same
}

// TestRows: deterministic, unique keys, never a demo's key, every cell
// readable by the checker, and the awkward values a CSV must survive.
func TestRows(t *testing.T) {
	var all strings.Builder
	for _, f := range Forms() {
		h1, r1 := f.Rows(60, 42)
		_, r2 := f.Rows(60, 42)
		if !slices.EqualFunc(r1, r2, slices.Equal) {
			t.Errorf("%s: Rows(60, 42) differs between calls", f.Name)
		}
		if _, r3 := f.Rows(60, 43); slices.EqualFunc(r1, r3, slices.Equal) {
			t.Errorf("%s: seeds 42 and 43 give the same rows", f.Name)
		}
		d := f.Demos()
		rows := append([][]string{d[0], d[1]}, r1...)
		// Records exactly as the rows mean them pass the checker.
		at := map[string]int{}
		for i, h := range h1 {
			at[h] = i
		}
		var records []Record
		for i, row := range rows {
			if len(row) != len(h1) {
				t.Fatalf("%s: row %d has %d cells; header has %d", f.Name, i, len(row), len(h1))
			}
			want, err := expected(f, at, row)
			if err != nil {
				t.Fatalf("%s: row %d: %v", f.Name, i, err)
			}
			for k, v := range f.Fixed {
				want[k] = v
			}
			records = append(records, Record{ID: i + 1, Fields: want})
		}
		rep, err := Check(f.Name, h1, rows, records)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Problems)+len(rep.Missing)+len(rep.Unmatched) > 0 {
			t.Errorf("%s: rows checked against themselves: %v %v %v", f.Name, rep.Problems, rep.Missing, rep.Unmatched)
		}
		// The rows survive a CSV round trip.
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		_ = w.WriteAll(append([][]string{h1}, rows...))
		back, err := csv.NewReader(&buf).ReadAll()
		if err != nil || !slices.EqualFunc(back[1:], rows, slices.Equal) {
			t.Errorf("%s: the rows do not survive encoding/csv: %v", f.Name, err)
		}
		for _, r := range r1 {
			all.WriteString(strings.Join(r, "\x00"))
		}
	}
	for _, awkward := range []string{",", `"`, "\n", "'", "é"} {
		if !strings.Contains(all.String(), awkward) {
			t.Errorf("no generated cell holds %q", awkward)
		}
	}
}

// TestPages: every form's page is served with a heading, a label for each
// labelled control and a submit; the index links them all.
func TestPages(t *testing.T) {
	site := Serve()
	t.Cleanup(site.Close)
	get := func(path string) (int, string) {
		res, err := http.Get(site.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	_, index := get("/")
	for _, f := range Forms() {
		code, body := get(f.Path())
		if code != http.StatusOK {
			t.Errorf("GET %s = %d; want 200: %s", f.Path(), code, body)
			continue
		}
		for _, want := range []string{"<h1>" + f.Title + "</h1>", "<button", "<label"} {
			if !strings.Contains(body, want) {
				t.Errorf("GET %s: the page lacks %s", f.Path(), want)
			}
		}
		if strings.Contains(body, "http://") || strings.Contains(body, "https://") || strings.Contains(body, "<link") {
			t.Errorf("GET %s: the page loads an external resource", f.Path())
		}
		if !strings.Contains(index, `href="`+f.Path()+`"`) {
			t.Errorf("the index does not link %s", f.Path())
		}
	}
}
