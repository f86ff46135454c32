package desktop

import (
	"context"
	"image"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// listAX is formAX that can also list its window: two groups, each with a
// Name field and a Save button. Handles are "Billing/Name", "Shipping/Save"...
type listAX struct {
	formAX
	mu      sync.Mutex
	pressed []string
	finds   int
}

func (l *listAX) List(_ context.Context, window string, _ int) ([]ax.Node, error) {
	node := func(role, name, handle string, parent int, x, y int) ax.Node {
		return ax.Node{Element: ax.Element{Role: role, Handle: handle}, Name: name, Label: -1, Parent: parent,
			Bounds: image.Rect(x, y, x+100, y+20), Window: "Form"}
	}
	return []ax.Node{
		node("window", "Form", "", -1, 0, 0),
		node("group", "Billing", "", 0, 0, 0),
		node("textbox", "Name", "Billing/Name", 1, 10, 10),
		node("button", "Save", "Billing/Save", 1, 10, 40),
		node("group", "Shipping", "", 0, 200, 0),
		node("textbox", "Name", "Shipping/Name", 4, 210, 10),
		node("button", "Save", "Shipping/Save", 4, 210, 40),
	}, nil
}

func (l *listAX) Find(ctx context.Context, window, role, label string) ([]ax.Element, error) {
	l.mu.Lock()
	l.finds++
	l.mu.Unlock()
	return l.formAX.Find(ctx, window, role, label)
}

func (l *listAX) Press(_ context.Context, el ax.Element) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pressed = append(l.pressed, el.Handle.(string))
	return nil
}

func targetOf(t *testing.T, js string) *selector.Selector {
	t.Helper()
	s, err := selector.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTargetFirst: a step with a target acts on the element the target
// names, through a tree that can list; the recorded role and label are the
// fallback when it names none or several, and the only way without a
// Lister.
func TestTargetFirst(t *testing.T) {
	for _, tc := range []struct {
		name    string
		lister  bool
		step    skills.Step
		tried   []replay.Attempt
		pressed string // the handle pressed, or filled when the step fills
		finds   bool   // whether the recorded role and label were looked for
	}{
		{
			name:    "target hit",
			lister:  true,
			step:    skills.Step{Action: "click", Role: "button", Label: "Save", Target: targetOf(t, `{"role":"button","name":"Save","in":{"role":"group","name":"Shipping"}}`)},
			tried:   []replay.Attempt{{Strategy: "target", Matches: 1}},
			pressed: "Shipping/Save",
		},
		{
			name:    "a fill through the target",
			lister:  true,
			step:    skills.Step{Action: "fill", Role: "textbox", Label: "Name", Value: "Ada", ReadBack: &skills.ReadBack{Kind: "value", Expect: "Ada"}, Target: targetOf(t, `{"role":"text_field","name":"Name","in":{"role":"group","name":"Billing"}}`)},
			tried:   []replay.Attempt{{Strategy: "target", Matches: 1}},
			pressed: "Billing/Name",
		},
		{
			name:    "target ambiguous falls back",
			lister:  true,
			step:    skills.Step{Action: "click", Role: "button", Label: "Save", Target: targetOf(t, `{"role":"button","name":"Save"}`)},
			tried:   []replay.Attempt{{Strategy: "target", Matches: 2}, {Strategy: "ax", Matches: 1}},
			pressed: "Save",
			finds:   true,
		},
		{
			name:    "target missing falls back",
			lister:  true,
			step:    skills.Step{Action: "click", Role: "button", Label: "Save", Target: targetOf(t, `{"role":"button","name":"Delete"}`)},
			tried:   []replay.Attempt{{Strategy: "target", Matches: 0}, {Strategy: "ax", Matches: 1}},
			pressed: "Save",
			finds:   true,
		},
		{
			name:    "no Lister",
			step:    skills.Step{Action: "click", Role: "button", Label: "Save", Target: targetOf(t, `{"role":"button","name":"Save","in":{"role":"group","name":"Shipping"}}`)},
			tried:   []replay.Attempt{{Strategy: "ax", Matches: 1}},
			pressed: "Save",
			finds:   true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &listAX{formAX: formAX{text: map[string]string{}}}
			var tree ax.Tree = l
			if !tc.lister {
				tree = treeOnly{l}
			}
			ex, err := New(Options{AX: tree, Input: &personInput{}, Quiet: time.Millisecond, FindTimeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			out, err := ex.Do(context.Background(), replay.Step{Step: tc.step})
			via := replay.ViaAX
			if len(tc.tried) > 0 && tc.tried[0] == (replay.Attempt{Strategy: "target", Matches: 1}) {
				via = replay.ViaTarget
			}
			if err != nil || !out.OK || out.Via != via {
				t.Fatalf("Do(%s) = %+v, %v; want done through the tree", tc.step.Target, out, err)
			}
			if !slices.Equal(out.Tried, tc.tried) {
				t.Errorf("Do(%s).Tried = %v; want %v", tc.step.Target, out.Tried, tc.tried)
			}
			got := ""
			if tc.step.Action == "fill" {
				for h, v := range l.text {
					if v == tc.step.Value {
						got = h
					}
				}
			} else if len(l.pressed) == 1 {
				got = l.pressed[0]
			}
			if got != tc.pressed {
				t.Errorf("Do(%s) acted on %q (pressed %v); want %q", tc.step.Target, got, l.pressed, tc.pressed)
			}
			if (l.finds > 0) != tc.finds {
				t.Errorf("Do(%s) looked up role and label %d times; want looked up: %v", tc.step.Target, l.finds, tc.finds)
			}
		})
	}
}

// treeOnly hides a tree's List: an ax.Tree that is not an ax.Lister.
type treeOnly struct{ ax.Tree }

// TestExpectAndWhenOnTheDesktop: checks read the window through the same
// listing as targets: an expect holds or fails naming what was seen; a
// when that does not hold skips its step, which presses nothing.
func TestExpectAndWhenOnTheDesktop(t *testing.T) {
	l := &listAX{formAX: formAX{text: map[string]string{}}}
	ex, err := New(Options{AX: l, Input: &personInput{}, Quiet: time.Millisecond, FindTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	expect := func(c skills.Check) replay.Step {
		return replay.Step{Step: skills.Step{Action: skills.ActionExpect, Expect: &c, Floor: skills.Floor{ActiveWindow: "Form"}}}
	}
	for _, c := range []skills.Check{
		{Text: "Shipping"},
		{Element: targetOf(t, `{"role":"button","name":"Save","in":{"role":"group","name":"Billing"}}`)},
		{Window: "For*"},
	} {
		if out, err := ex.Do(ctx, expect(c)); err != nil || !out.OK {
			t.Errorf("expect %s = %+v, %v; want it held", c, out, err)
		}
	}
	for _, c := range []struct {
		check skills.Check
		want  string
	}{
		{skills.Check{Element: targetOf(t, `{"role":"button","name":"Save"}`), Within: "100ms"}, `step 1 (expect): element {role: "button", name: "Save"} not seen within 100ms: 2 elements match`},
		{skills.Check{Window: "Invoices", Within: "100ms"}, `the title was "Form"`},
	} {
		out, err := ex.Do(ctx, expect(c.check))
		if err != nil || out.OK || out.Error != c.want && !strings.HasSuffix(out.Error, c.want) {
			t.Errorf("expect %s = %+v, %v; want a failure saying %q", c.check, out, err, c.want)
		}
	}
	press := replay.Step{Step: skills.Step{Action: "click", Role: "button", Label: "Save",
		Target: targetOf(t, `{"role":"button","name":"Save","in":{"role":"group","name":"Billing"}}`),
		When:   &skills.Check{Text: "Refused", Within: "100ms"}}}
	if out, err := ex.Do(ctx, press); err != nil || !out.OK || !out.Skipped || len(l.pressed) != 0 {
		t.Fatalf("a step whose when fails = %+v, %v, pressed %v; want skipped, nothing pressed", out, err, l.pressed)
	}
	press.When = &skills.Check{Text: "Billing"}
	if out, err := ex.Do(ctx, press); err != nil || !out.OK || out.Skipped || !slices.Equal(l.pressed, []string{"Billing/Save"}) {
		t.Fatalf("a step whose when holds = %+v, %v, pressed %v; want Billing's Save pressed", out, err, l.pressed)
	}
}
