package desktop

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// savingForm is a form with a Name field and a Save button: Save empties
// the field and shows status (when the app works).
type savingForm struct {
	name, status string
	works        bool
}

func (f *savingForm) Find(_ context.Context, _, role, label string) ([]ax.Element, error) {
	return []ax.Element{{Role: role, Handle: label}}, nil
}
func (f *savingForm) Fill(_ context.Context, _ ax.Element, s string) error { f.name = s; return nil }
func (f *savingForm) Text(context.Context, ax.Element) (string, error)     { return f.name, nil }
func (f *savingForm) Press(context.Context, ax.Element) error {
	if f.works {
		f.status, f.name = "Saved "+f.name, ""
	}
	return nil
}
func (f *savingForm) List(context.Context, string, int) ([]ax.Node, error) {
	return []ax.Node{{Element: ax.Element{Role: "window"}, Name: "Order", Label: -1, Parent: -1},
		{Element: ax.Element{Role: "label"}, Name: f.status, Label: -1}}, nil
}

func TestDesktopSuccessConditions(t *testing.T) {
	text := skills.Condition{Kind: skills.CondText, Value: "Ada Lovelace", Timeout: "300ms"}
	reset := skills.Condition{Kind: skills.CondFormReset, Timeout: "300ms"}
	for _, tc := range []struct {
		name      string
		works     bool
		assert    skills.Conditions
		committed bool
		err       string
	}{
		{"the row's name shows and the form emptied", true, skills.Conditions{text, reset}, true, ""},
		{"the app ignored the click", false, skills.Conditions{text, reset}, false, "still hold"},
		{"only the text, and it does not show", false, skills.Conditions{text}, false, "does not show"},
		{"a guessed url_changed: the fields tell", true, skills.Conditions{{Kind: skills.CondURLChanged, Timeout: "10s"}}, true, ""},
		{"a check the desktop cannot make", true, skills.Conditions{{Kind: skills.CondElement, Value: "#done"}}, false, "cannot be checked on the desktop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &savingForm{works: tc.works}
			ex, err := New(Options{Input: &personInput{}, AX: f, Quiet: -1, FindTimeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			fill := replay.Step{Index: 0, Step: skills.Step{Action: "fill", Role: "textbox", Label: "Name", Value: "Ada Lovelace"}, Filled: []string{"Ada Lovelace"}}
			if out, err := ex.Do(ctx, fill); err != nil || !out.OK {
				t.Fatalf("fill = %+v, %v", out, err)
			}
			save := replay.Step{Index: 1, Step: skills.Step{Action: "click", Role: "button", Label: "Save", Destructive: true, Assert: tc.assert}, Filled: []string{"Ada Lovelace"}}
			out, err := ex.Do(ctx, save)
			if err != nil {
				t.Fatal(err)
			}
			if out.Committed != tc.committed || out.OK != tc.committed || !strings.Contains(out.Error, tc.err) {
				t.Fatalf("Save = %+v; want committed %v, error with %q", out, tc.committed, tc.err)
			}
			if strings.Contains(out.Error, "Ada") {
				t.Errorf("the error quotes the row's value: %q", out.Error)
			}
		})
	}
}
