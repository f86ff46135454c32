package zoo

import (
	"context"
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLibraryFormsFilledByThePerson: for every library form the person
// files the two demonstrations and three generated rows in a real
// Chromium, through the libraries' own widgets, and the checker finds each
// stored once with every field right; then a wrong list item and a wrong
// date in the stored records must both be reported.
func TestLibraryFormsFilledByThePerson(t *testing.T) {
	site := Serve()
	t.Cleanup(site.Close)
	forms := LibraryForms()
	names := make([]string, len(forms))
	for i, f := range forms {
		names[i] = f.Name
	}
	wide(t, names, func(t *testing.T, i int) {
		f := forms[i]
		ctx := tab(t)
		demos := f.Demos()
		header, generated := f.Rows(3, 11)
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
		catchesWrongListAndDate(t, site, f, header, rows)
	})
}

// catchesWrongListAndDate tampers with stored records the way a replay
// goes wrong (a list item swapped for another option, a date a day off,
// a list in another order, which is no error) and wants the checker to
// report exactly the first two.
func catchesWrongListAndDate(t *testing.T, site *Site, f *Form, header []string, rows [][]string) {
	t.Helper()
	var list, date Column
	for _, c := range f.Columns {
		switch {
		case list.Name == "" && strings.HasPrefix(c.Rule, "option labels split by"):
			list = c
		case date.Name == "" && strings.HasPrefix(c.Rule, "a date written as"):
			date = c
		}
	}
	var want []Problem
	site.mu.Lock()
	recs := site.records[f.Name]
	if list.Name != "" {
		lf := list.Fields[0]
		items := strings.Split(recs[0].Fields[lf], "\n")
		for _, o := range listOptions(f, lf) { // swap the first item for an option not chosen
			if !slices.Contains(items, o) {
				items[0] = o
				break
			}
		}
		recs[0].Fields[lf] = strings.Join(items, "\n")
		in := strings.Split(recs[2].Fields[lf], "\n")
		slices.Reverse(in)
		recs[2].Fields[lf] = strings.Join(in, "\n")
		want = append(want, Problem{Kind: Mismatch, Row: 0, Field: lf})
	}
	if date.Name != "" {
		df := date.Fields[0]
		d, _ := time.Parse(time.DateOnly, recs[1].Fields[df])
		recs[1].Fields[df] = d.AddDate(0, 0, 1).Format(time.DateOnly)
		want = append(want, Problem{Kind: Mismatch, Row: 1, Field: df})
	}
	site.mu.Unlock()

	rep, err := Check(f.Name, header, rows, site.Records(f.Name))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]Problem, len(rep.Problems))
	for i, p := range rep.Problems {
		got[i] = Problem{Kind: p.Kind, Row: p.Row, Field: p.Field}
	}
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("after a wrong list item in row 0, a wrong date in row 1 and row 2's list reordered: problems %v; want %v",
			rep.Problems, want)
	}
}

// listOptions is the options a list field may hold, from its check.
func listOptions(f *Form, field string) []string {
	for _, opts := range [][]string{confTopics, confMeals, volunteerLanguages, tripNeeds, giftProducts, clubInterests} {
		fd, _ := f.fieldNamed(field)
		if fd.check(strings.Join(opts, "\n")) == "" {
			return opts
		}
	}
	return nil
}

// TestLibraryBundlesEmbedded: every bundle and style sheet a library
// form's page loads is embedded and not empty.
func TestLibraryBundlesEmbedded(t *testing.T) {
	for _, name := range []string{"antd.js", "aria.js", "aria.css", "mantine.js", "mantine.css"} {
		b, err := fs.ReadFile(bundles, "lib/"+name)
		if err != nil || len(b) < 1000 {
			t.Errorf("embedded lib/%s: %d bytes, %v; run scripts/zoo-bundle", name, len(b), err)
		}
	}
}

// TestLibraryFormsDescribed: the library forms are apart from Forms; each
// has headers that are not its labels, a column for every stored field,
// two demos readable by its columns that differ in every choice control,
// and generated rows whose list cells hold one to three items.
func TestLibraryFormsDescribed(t *testing.T) {
	for _, f := range LibraryForms() {
		if slices.Contains(Forms(), f) {
			t.Errorf("%s is among Forms()", f.Name)
		}
		if g, err := Lookup(f.Name); err != nil || g != f {
			t.Errorf("Lookup(%q) = %v, %v", f.Name, g, err)
		}
		labels := map[string]bool{}
		for _, fd := range f.fields {
			labels[strings.ToLower(fd.label)] = true
			if !slices.ContainsFunc(f.Columns, func(c Column) bool { return slices.Contains(c.Fields, fd.name) }) {
				t.Errorf("%s: no column fills %s", f.Name, fd.name)
			}
		}
		for _, c := range f.Columns {
			if labels[strings.ToLower(c.Name)] {
				t.Errorf("%s: column %q reads like the field's label", f.Name, c.Name)
			}
		}
		if same := sameChoices(t, f); len(same) > 0 {
			t.Errorf("%s: the demos agree in the choice fields %v; a recorder cannot tell those from constants", f.Name, same)
		}
		header, rows := f.Rows(40, 3)
		if _, err := Check(f.Name, header, append(rows, f.Demos()[0], f.Demos()[1]), nil); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
		for _, c := range f.Columns {
			if !strings.HasPrefix(c.Rule, "option labels split by") {
				continue
			}
			j := slices.Index(f.Header(), c.Name)
			counts := map[int]bool{}
			for _, r := range rows {
				want, err := c.expect(r[j])
				if err != nil {
					t.Fatalf("%s: %s %q: %v", f.Name, c.Name, r[j], err)
				}
				counts[len(sortedItems(want[c.Fields[0]]))] = true
			}
			if !counts[1] || !counts[3] {
				t.Errorf("%s: column %s lists %v items in 40 rows; want 1 to 3", f.Name, c.Name, counts)
			}
		}
	}
}

// TestLibraryPages: each library form's page loads a bundle the site
// serves, and the index links the page.
func TestLibraryPages(t *testing.T) {
	site := Serve()
	t.Cleanup(site.Close)
	get := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get(site.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	_, index := get("/")
	script := regexp.MustCompile(`<script src="(/lib/[a-z]+\.js)">`)
	for _, f := range LibraryForms() {
		code, page := get(f.Path())
		m := script.FindStringSubmatch(page)
		if code != http.StatusOK || m == nil || !strings.Contains(page, `"form":"`+f.Name+`"`) {
			t.Errorf("GET %s = %d, bundle %v; want 200, a bundle and the form's name in its data", f.Path(), code, m)
			continue
		}
		if code, js := get(m[1]); code != http.StatusOK || len(js) < 1000 {
			t.Errorf("GET %s = %d with %d bytes; want the bundle", m[1], code, len(js))
		}
		if !strings.Contains(index, `href="`+f.Path()+`"`) {
			t.Errorf("the index does not link %s", f.Path())
		}
	}
}
