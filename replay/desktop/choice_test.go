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

// choiceTree is one choice control, found by role and label; stubborn
// says the app ignores what is set.
type choiceTree struct {
	role     string
	state    ax.Choice
	stubborn bool
	chosen   []string
	presses  int
}

func (c *choiceTree) Find(_ context.Context, _, role, label string) ([]ax.Element, error) {
	if role != c.role && role != "" {
		return nil, nil
	}
	return []ax.Element{{Role: c.role}}, nil
}
func (c *choiceTree) Fill(context.Context, ax.Element, string) error   { return nil }
func (c *choiceTree) Text(context.Context, ax.Element) (string, error) { return "", nil }
func (c *choiceTree) Press(context.Context, ax.Element) error {
	c.presses++
	if !c.stubborn {
		c.state.Checked = !c.state.Checked
	}
	return nil
}
func (c *choiceTree) Choice(context.Context, ax.Element) (ax.Choice, error) { return c.state, nil }
func (c *choiceTree) Choose(_ context.Context, _ ax.Element, option string) error {
	c.chosen = append(c.chosen, option)
	if ax.OptionIndex(c.state.Options, option) < 0 {
		return ax.ErrNoOption
	}
	if !c.stubborn {
		c.state.Selected = option
	}
	return nil
}

// plainTree finds the control but cannot read a choice.
type plainTree struct{ c *choiceTree }

func (p plainTree) Find(ctx context.Context, w, r, l string) ([]ax.Element, error) {
	return p.c.Find(ctx, w, r, l)
}
func (p plainTree) Fill(ctx context.Context, el ax.Element, s string) error {
	return p.c.Fill(ctx, el, s)
}
func (p plainTree) Text(ctx context.Context, el ax.Element) (string, error) {
	return p.c.Text(ctx, el)
}
func (p plainTree) Press(ctx context.Context, el ax.Element) error { return p.c.Press(ctx, el) }

func TestChoiceStepsThroughTheTree(t *testing.T) {
	countries := []string{"France", "Germany"}
	sel := func(v string) replay.Step {
		return replay.Step{Step: skills.Step{Action: "select", Role: "combobox", Label: "Country", Value: v,
			ReadBack: &skills.ReadBack{Kind: skills.ReadBackSelected, Expect: v}, Floor: skills.Floor{Cursor: []int{5, 5}}}, Filled: []string{v}}
	}
	box := func(v string) replay.Step {
		return replay.Step{Step: skills.Step{Action: "click", Role: "checkbox", Label: "Newsletter", Value: v,
			ReadBack: &skills.ReadBack{Kind: skills.ReadBackChecked, Expect: v}, Floor: skills.Floor{Cursor: []int{5, 5}}}}
	}
	for _, tc := range []struct {
		name     string
		tree     *choiceTree
		plain    bool
		step     replay.Step
		ok       bool
		err      string
		chosen   string
		presses  int
		selected string
	}{
		{name: "an option set and read back", tree: &choiceTree{role: "combobox", state: ax.Choice{Options: countries}}, step: sel("Germany"), ok: true, chosen: "Germany", selected: "Germany"},
		{name: "already selected: nothing sent", tree: &choiceTree{role: "combobox", state: ax.Choice{Options: countries, Selected: "Germany"}}, step: sel("Germany"), ok: true, selected: "Germany"},
		{name: "the app holds otherwise", tree: &choiceTree{role: "combobox", stubborn: true, state: ax.Choice{Options: countries, Selected: "France"}}, step: sel("Germany"), err: "read-back", chosen: "Germany", selected: "France"},
		{name: "an option the control no longer has", tree: &choiceTree{role: "combobox", state: ax.Choice{Options: countries}}, step: sel("Spain"), err: "no option"},
		{name: "another role under the label", tree: &choiceTree{role: "textbox", state: ax.Choice{Options: countries}}, step: sel("Germany"), err: "not found"},
		{name: "a tree that cannot read choices", tree: &choiceTree{role: "combobox", state: ax.Choice{Options: countries}}, plain: true, step: sel("Germany"), err: "cannot set or read a choice"},
		{name: "a box ticked", tree: &choiceTree{role: "checkbox", state: ax.Choice{Checkable: true}}, step: box("true"), ok: true, presses: 1},
		{name: "a box already in its state is not clicked", tree: &choiceTree{role: "checkbox", state: ax.Choice{Checkable: true}}, step: box("false"), ok: true},
		{name: "a radio button is pressed as before", tree: &choiceTree{role: "radio", state: ax.Choice{}}, step: replay.Step{Step: skills.Step{Action: "click", Role: "radio", Label: "Express",
			ReadBack: &skills.ReadBack{Kind: skills.ReadBackChecked, Expect: "true"}, Floor: skills.Floor{Cursor: []int{5, 5}}}}, ok: true, presses: 1},
		{name: "a box that does not take the click", tree: &choiceTree{role: "checkbox", stubborn: true, state: ax.Choice{Checkable: true}}, step: box("true"), err: "read-back", presses: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &personInput{}
			var tree ax.Tree = tc.tree
			if tc.plain {
				tree = plainTree{tc.tree}
			}
			ex, err := New(Options{Input: in, AX: tree, Quiet: -1, FindTimeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			out, err := ex.Do(context.Background(), tc.step)
			if err != nil {
				t.Fatal(err)
			}
			if out.OK != tc.ok || !strings.Contains(out.Error, tc.err) {
				t.Fatalf("Do(%s) = %+v; want OK %v, error with %q", tc.step.Action, out, tc.ok, tc.err)
			}
			if strings.Contains(out.Error, tc.step.Value) && tc.step.Action == "select" {
				t.Errorf("the error quotes the row's value: %q", out.Error)
			}
			if got := strings.Join(tc.tree.chosen, ","); got != tc.chosen || tc.tree.presses != tc.presses || len(in.clicks) != 0 {
				t.Errorf("chose %q, pressed %d, clicked %d; want chose %q, pressed %d, no click", got, tc.tree.presses, len(in.clicks), tc.chosen, tc.presses)
			}
			if tc.tree.state.Selected != tc.selected {
				t.Errorf("the control holds %q; want %q", tc.tree.state.Selected, tc.selected)
			}
		})
	}
}
