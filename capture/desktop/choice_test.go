package desktop

import (
	"context"
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

// fakeChoices is a form with a Country combo box at (100, 100) whose
// popup has Germany at (100, 130), over a Password field; a Plan list
// whose item Standard is at (100, 200); a Newsletter box at (100, 300).
type fakeChoices struct {
	popupOpen bool   // the popup is up when a press is looked at
	selected  string // what the combo holds when reread
	checked   bool   // the box's state when the press is looked at
	after     bool   // and when it is read again
	noReread  bool   // the box cannot be read again
	overCombo bool   // the popup's first option covers the combo box
	late      int    // rereads of the combo that show it as it was
	failing   int    // rereads that fail before any answers
	rereads   int
	unread    int // reads of a control at a press that fail first
	reads     int
}

func path(p string) *string { return &p }

var (
	country = &events.Enrichment{Kind: events.KindAX, Role: "combobox", Label: "Country", AXPath: path("frame[Order]/panel/combo box"),
		Options: []events.Option{{Label: "France"}, {Label: "Germany"}}}
	plan = &events.Enrichment{Kind: events.KindAX, Role: "listbox", Label: "Plan", AXPath: path("frame[Order]/panel/list box"),
		Options: []events.Option{{Label: "Basic"}, {Label: "Standard"}}}
	newsletter = &events.Enrichment{Kind: events.KindAX, Role: "checkbox", Label: "Newsletter", AXPath: path("frame[Order]/panel/check box[Newsletter]")}
)

func (f *fakeChoices) At(_ context.Context, x, y int) (*events.Enrichment, error) {
	switch image.Pt(x, y) {
	case image.Pt(100, 100):
		return country, nil
	case image.Pt(100, 130):
		if f.popupOpen {
			return &events.Enrichment{Kind: events.KindAX, Role: "menuitem", Label: "Germany", AXPath: path("frame[Order]/panel/combo box/menu/menu item[Germany]")}, nil
		}
		return &events.Enrichment{Kind: events.KindAX, Role: "textbox", Label: "Password", AXPath: path("frame[Order]/panel/password text")}, nil
	case image.Pt(100, 200):
		return &events.Enrichment{Kind: events.KindAX, Role: "label", Label: "Standard", AXPath: path("frame[Order]/panel/list box/list item/label[Standard]")}, nil
	case image.Pt(100, 300):
		return newsletter, nil
	}
	return &events.Enrichment{Kind: events.KindAX, Role: "button", Label: "Save", AXPath: path("frame[Order]/panel/push button[Save]")}, nil
}

func (f *fakeChoices) ChoiceAt(_ context.Context, x, y int) (*Choice, error) {
	if f.reads++; f.reads <= f.unread {
		return nil, context.DeadlineExceeded
	}
	switch image.Pt(x, y) {
	case image.Pt(100, 100):
		if f.overCombo {
			return &Choice{Kind: ChoiceCombo, Control: country, Picked: "France", Bounds: image.Rect(50, 90, 150, 110), Handle: "combo"}, nil
		}
		return &Choice{Kind: ChoiceCombo, Control: country, Bounds: image.Rect(50, 90, 150, 110), Handle: "combo"}, nil
	case image.Pt(100, 130):
		if f.popupOpen {
			return &Choice{Kind: ChoiceCombo, Control: country, Picked: "Germany", Handle: "combo"}, nil
		}
	case image.Pt(100, 200):
		return &Choice{Kind: ChoiceList, Control: plan, Picked: "Standard"}, nil
	case image.Pt(100, 300):
		return &Choice{Kind: ChoiceCheck, Control: newsletter, Checked: f.checked}, nil
	}
	return nil, nil
}

func (f *fakeChoices) Reread(_ context.Context, c *Choice) (*Choice, error) {
	if f.noReread {
		return nil, fmt.Errorf("gone")
	}
	if f.rereads++; f.rereads <= f.failing {
		return nil, context.DeadlineExceeded
	}
	n := *c
	n.Selected, n.Checked = f.selected, f.after
	if f.rereads <= f.failing+f.late {
		n.Selected = c.Selected
	}
	return &n, nil
}

// playRaw runs presses at points in window Order through a pipeline and
// returns its steps.
func playRaw(t *testing.T, enr Enricher, pts ...image.Point) []events.Step {
	t.Helper()
	return pressIn(t, enr, nil, "Order", pts...)
}

func describeSteps(steps []events.Step) string {
	var out []string
	for _, s := range steps {
		d := s.Action
		if s.Enrichment != nil {
			d += " " + s.Enrichment.Label
		}
		if s.Value != nil {
			d += "=" + s.Value.Raw
		}
		out = append(out, d)
	}
	return strings.Join(out, ", ")
}

func TestChoicesBecomeSelectSteps(t *testing.T) {
	combo, item, list, box, save := image.Pt(100, 100), image.Pt(100, 130), image.Pt(100, 200), image.Pt(100, 300), image.Pt(400, 400)
	for _, tc := range []struct {
		name string
		f    *fakeChoices
		pts  []image.Point
		want string
	}{
		{"a pick in the popup", &fakeChoices{popupOpen: true}, []image.Point{combo, item, save}, "select Country=Germany, click Save"},
		// The press was looked at after the popup closed: the tree shows
		// the field under it, and the combo box what was picked.
		{"the popup closed before the press was looked at", &fakeChoices{selected: "Germany"}, []image.Point{combo, item, save}, "select Country=Germany, click Save"},
		{"a dismissed popup", &fakeChoices{}, []image.Point{combo, save}, "click Save"},
		// The popup closed over the Plan list before the press was looked
		// at, and the combo box shows the pick only a second later, or
		// after failing to answer: the press picked in the popup, not in
		// the list under it.
		{"the popup closed over a list, the pick shown late", &fakeChoices{selected: "France", late: 20}, []image.Point{combo, list, save}, "select Country=France, click Save"},
		{"the popup closed over a list, the combo slow to answer", &fakeChoices{selected: "France", failing: 8}, []image.Point{combo, list, save}, "select Country=France, click Save"},
		// The combo box did not answer at first when it was pressed: the
		// press is still read as its opening, not as a click.
		{"the combo slow to answer when pressed", &fakeChoices{popupOpen: true, unread: 3}, []image.Point{combo, item, save}, "select Country=Germany, click Save"},
		{"a list slow to answer", &fakeChoices{unread: 5}, []image.Point{list, save}, "select Plan=Standard, click Save"},
		{"the combo changed by keys, seen at the end", &fakeChoices{selected: "France"}, []image.Point{combo}, "select Country=France"},
		{"a list item", &fakeChoices{}, []image.Point{list, save}, "select Plan=Standard, click Save"},
		{"a box ticked", &fakeChoices{after: true}, []image.Point{box, save}, "click Newsletter=true, click Save"},
		{"a box unticked", &fakeChoices{checked: true}, []image.Point{box}, "click Newsletter=false"},
		// The press was looked at after the release had ticked the box:
		// the state read later is the one the click left.
		{"a box already ticked when looked at", &fakeChoices{checked: true, after: true}, []image.Point{box, save}, "click Newsletter=true, click Save"},
		{"a box that cannot be read again", &fakeChoices{noReread: true}, []image.Point{box}, "click Newsletter=true"},
		// The popup drew its first option over the combo box before the
		// opening press was looked at: a press on the control opens it.
		{"the popup over the combo box", &fakeChoices{popupOpen: true, overCombo: true}, []image.Point{combo, item, save}, "select Country=Germany, click Save"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := playRaw(t, tc.f, tc.pts...)
			if d := describeSteps(got); d != tc.want {
				t.Fatalf("steps = %s; want %s", d, tc.want)
			}
			if s := got[0]; s.Action == events.ActionSelect {
				if s.Value.Type != events.ValueEnum || len(s.Enrichment.Options) != 2 || fmt.Sprint(s.Cursor) != fmt.Sprint([]int{tc.pts[0].X, tc.pts[0].Y}) {
					t.Errorf("select step = %+v, value %+v; want an enum value, the options, the first press's point", s, s.Value)
				}
			}
		})
	}
}

// A plain Enricher (no ChoiceEnricher): presses stay clicks, as before.
type plainEnricher struct{ f *fakeChoices }

func (p plainEnricher) At(ctx context.Context, x, y int) (*events.Enrichment, error) {
	return p.f.At(ctx, x, y)
}

func TestChoicesNeedAChoiceEnricher(t *testing.T) {
	got := playRaw(t, plainEnricher{&fakeChoices{popupOpen: true}}, image.Pt(100, 100), image.Pt(100, 130))
	if d := describeSteps(got); d != "click Country, click Germany" {
		t.Fatalf("steps = %s; want two clicks", d)
	}
}

// windowWatch is a ChoiceEnricher and an Observer: the Order window
// shows "Saved Ada" and empty fields once Save was pressed.
type windowWatch struct {
	fakeChoices
	saved  bool
	closes bool
}

func (w *windowWatch) At(ctx context.Context, x, y int) (*events.Enrichment, error) {
	if x == 400 {
		w.saved = true // the app reacts to the press at once
	}
	return w.fakeChoices.At(ctx, x, y)
}

func (w *windowWatch) Window(context.Context, string) (WindowState, error) {
	switch {
	case w.saved && w.closes:
		return WindowState{Gone: true}, nil
	case w.saved:
		return WindowState{Texts: []string{"Name", "Saved Ada"}, Fields: 2}, nil
	}
	return WindowState{Texts: []string{"Name"}, Fields: 2, Filled: 1}, nil
}

func TestSaveRecordsWhatSuccessLookedLike(t *testing.T) {
	for _, tc := range []struct {
		name   string
		closes bool
		want   events.Effect
	}{
		{"a status text and the form emptied", false, events.Effect{URLUnknown: true, Texts: []string{"Saved Ada"}, FormReset: true}},
		{"the window closed", true, events.Effect{URLUnknown: true, FormReset: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := playRaw(t, &windowWatch{closes: tc.closes}, image.Pt(100, 200), image.Pt(400, 400))
			if d := describeSteps(got); d != "select Plan=Standard, click Save" {
				t.Fatalf("steps = %s", d)
			}
			e := got[1].Effect
			if e == nil {
				t.Fatal("the Save click has no effect recorded")
			}
			e.Millis = 0
			if fmt.Sprint(*e) != fmt.Sprint(tc.want) {
				t.Errorf("effect = %+v; want %+v", *e, tc.want)
			}
			if got[0].Effect != nil {
				t.Errorf("the select has an effect: %+v", got[0].Effect)
			}
		})
	}
}
