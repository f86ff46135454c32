package skills

import (
	"image"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/selector"
)

func TestCheckHolds(t *testing.T) {
	tree := selector.Tree{
		{Role: "window", Name: "Orders", Parent: -1, Label: -1, Bounds: image.Rect(0, 0, 800, 600)},
		{Role: "text", Name: "Saved  order ＃42", Parent: 0, Label: -1, Bounds: image.Rect(10, 10, 200, 30)},
		{Role: "text_field", Name: "Email", Value: "ada@example.com", Parent: 0, Label: -1, Bounds: image.Rect(10, 40, 200, 60)},
		{Role: "button", Name: "Save", Parent: 0, Label: -1, Bounds: image.Rect(10, 70, 80, 90)},
		{Role: "button", Name: "Save", Parent: 0, Label: -1, Bounds: image.Rect(90, 70, 160, 90)},
	}
	for _, c := range []struct {
		name  string
		check Check
		ok    bool
		seen  string
	}{
		{"text is case-sensitive", Check{Text: "saved order #42"}, false, "no visible element shows the text (5 elements read)"},
		{"text in a name, full-width and spaces normalized", Check{Text: "Saved order #42"}, true, ""},
		{"text in a value", Check{Text: "ada@"}, true, ""},
		{"text nowhere", Check{Text: "Refused"}, false, "no visible element shows the text (5 elements read)"},
		{"one element", Check{Element: &selector.Selector{Role: "text_field", Name: "Email"}}, true, ""},
		{"two elements", Check{Element: &selector.Selector{Role: "button", Name: "Save"}}, false, "2 elements match"},
		{"no element", Check{Element: &selector.Selector{Role: "link", Name: "Save"}}, false, "no element matches"},
		{"window contains", Check{Window: "rders"}, true, ""},
		{"window glob", Check{Window: "Or*s"}, true, ""},
		{"another window", Check{Window: "Invoices"}, false, `the title was "Orders"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ok, seen := c.check.Holds("Orders", tree)
			if ok != c.ok || seen != c.seen {
				t.Errorf("Holds = %v, %q; want %v, %q", ok, seen, c.ok, c.seen)
			}
			if c.check.Text != "" && strings.Contains(seen, c.check.Text) {
				t.Errorf("what was seen quotes the text looked for: %q", seen)
			}
		})
	}
}

func TestCheckFillAndWait(t *testing.T) {
	c := Check{Text: "Saved %name%", Element: &selector.Selector{Role: "text", Name: "%name%"}, Within: "5s"}
	got, err := c.Fill(map[string]string{"name": "Ada"})
	if err != nil || got.Text != "Saved Ada" || got.Element.Name != "Ada" || c.Element.Name != "%name%" {
		t.Fatalf("Fill = %+v, %v; want the row's value in text and element, the skill's check unchanged", got, err)
	}
	if _, err := c.Fill(map[string]string{}); err == nil {
		t.Fatal("Fill without the value: no error")
	}
	if got.Wait(time.Second) != 5*time.Second || (Check{}).Wait(2*time.Second) != 2*time.Second {
		t.Fatal("Wait does not read within, or does not default")
	}
}
