// Package zoo is a set of local web forms that imitate the forms and the
// accessible widgets people build on real sites, with a server that stores
// what each form submits, a CSV of rows for each form, a checker that proves
// every row was stored once and right, and a "person" that fills each form
// through the DevTools protocol with trusted input only.
//
// The end-to-end test of reprise uses it: the person demonstrates a form
// twice while the extension records, reprise builds a skill from that and
// replays it over Rows, and Check compares what the site stored with the
// rows. The zoo imports nothing of reprise, so what it judges is independent
// of what it tests. In outline:
//
//	site := zoo.Serve()
//	defer site.Close()
//	f, _ := zoo.Lookup("listbox")
//	for _, d := range f.Demos() { // while the extension records
//		err := f.Person(tab, site.URL(), d) // tab: a chromedp context with a deadline
//	}
//	header, rows := f.Rows(50, seed) // write them to the CSV reprise replays
//	rep, err := zoo.Check(f.Name, header, rows, site.Records(f.Name))
//	// rep.Problems must be empty; rep.Missing must be exactly the rows
//	// reprise reported as failed or skipped; rep.Unmatched holds the demos.
//
// LibraryForms are more forms of the same kind, built from the stock
// widgets of antd, React Aria Components and Mantine (tag pickers,
// segmented date fields, calendars, async comboboxes); the site serves
// them and Check judges them too, but Forms leaves them out.
package zoo

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Form is one page of the zoo: what it shows, the CSV that fills it, how a
// CSV cell becomes the stored value, and the person who fills it by hand.
type Form struct {
	// Name is the form's path segment: the form is at /<Name>/new.
	Name string
	// Title is the page heading.
	Title string
	// Widgets names, for people, what a person meets on the page.
	Widgets []string
	// Convention says how the CSV writes choices and booleans.
	Convention string
	// Key is the CSV column that identifies a row; no two rows share it.
	Key string
	// Columns are the CSV columns in order.
	Columns []Column
	// Fixed are stored fields that no column fills, with the value they
	// keep when the person leaves them as they are.
	Fixed map[string]string
	// SameChoice lists the stored fields of choice controls whose value
	// is the same in both demonstrations (a control left at its default
	// counts). Empty means the demonstrations differ in every choice
	// control, so a recorder can tell a parameter from a constant.
	SameChoice []string

	fields []field // what the server stores and checks, in page order
	json   bool    // submits through fetch (JSON) rather than a POST
	slow   bool    // the server answers after SaveDelay
	demos  [2][]string
	gen    func(g *gen, i int) []string
	fill   func(ctx context.Context, base string, c cells) error
	data   func() any // the form template's data; nil for none
	routes func(s *Site, f *Form)
}

// Column is one CSV column of a form.
type Column struct {
	// Name is the header cell; it never equals the field's label.
	Name string
	// Fields are the stored fields the column fills: one, three for a
	// date split in selects, none when no field uses the column (the CSV
	// carries it for the caller's own use).
	Fields []string
	// Choice marks a column that a choice control fills (radio, checkbox,
	// select, listbox, combobox, switch).
	Choice bool
	// Rule says, for people, how a cell becomes the stored value.
	Rule string

	expect func(cell string) (map[string]string, error)
	// same, when set, says whether a stored value means the expected
	// one (a list as a set, a date as a date); else they must be equal.
	same func(want, got string) bool
}

// Record is one submission a form stored.
type Record struct {
	// ID is the site-wide number of the record, in the order stored.
	ID int
	// Fields maps each field's fixed name to the value exactly as
	// submitted ("" for a field left empty).
	Fields map[string]string
}

// ErrUnknownForm is returned for a form name that is not in the zoo.
var ErrUnknownForm = errors.New("no such form in the zoo")

// all is every form, in the order the brief lists them.
var all = []*Form{
	nativeChoices, ariaChoices, selectValues, listboxForm, comboboxSelect,
	autocomplete, dates, saveInPlace, redirect, confirmDialog, wizard,
	phone, shuffled,
}

// Forms returns every form of the zoo.
func Forms() []*Form { return slices.Clone(all) }

// Lookup returns the form with this name, of Forms or LibraryForms.
func Lookup(name string) (*Form, error) {
	for _, f := range slices.Concat(all, libAll) {
		if f.Name == name {
			return f, nil
		}
	}
	return nil, fmt.Errorf("form %q: %w", name, ErrUnknownForm)
}

// Path is where a person starts filling the form.
func (f *Form) Path() string { return "/" + f.Name + "/new" }

// Header returns the CSV header: the column names in order.
func (f *Form) Header() []string {
	h := make([]string, len(f.Columns))
	for i, c := range f.Columns {
		h[i] = c.Name
	}
	return h
}

// Demos returns the two rows a person demonstrates, in column order. No
// generated row shares their key, so a replay of Rows never repeats them.
func (f *Form) Demos() [2][]string {
	return [2][]string{slices.Clone(f.demos[0]), slices.Clone(f.demos[1])}
}

// Person fills the form at baseURL for one row (in column order) the way a
// person does, with trusted mouse and key input only, submits it and waits
// for the page's own sign of success. ctx must be a chromedp context (a
// tab); give it a deadline. A refused submission is an error that quotes
// the page's message.
func (f *Form) Person(ctx context.Context, baseURL string, row []string) error {
	if len(row) != len(f.Columns) {
		return fmt.Errorf("%s: a row of %d cells; the form has %d columns", f.Name, len(row), len(f.Columns))
	}
	c := cells{}
	for i, col := range f.Columns {
		c[col.Name] = row[i]
	}
	if err := f.fill(ctx, baseURL, c); err != nil {
		return fmt.Errorf("%s: fill for %s: %w", f.Name, c[f.Key], err)
	}
	return nil
}

// cells is one row keyed by column name.
type cells map[string]string

// column returns the form's column with this name.
func (f *Form) column(name string) (Column, bool) {
	for _, c := range f.Columns {
		if c.Name == name {
			return c, true
		}
	}
	return Column{}, false
}

// field returns the definition of a stored field.
func (f *Form) fieldNamed(name string) (field, bool) {
	for _, fd := range f.fields {
		if fd.name == name {
			return fd, true
		}
	}
	return field{}, false
}
