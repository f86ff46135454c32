package interop

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// Page is a live page an imported flow's targets are resolved on: it
// opens a URL and describes the element selectors find there, without
// acting on the page.
type Page interface {
	Open(ctx context.Context, url string) error
	Describe(ctx context.Context, sels []events.Selector) (Element, bool, error)
}

// Element is what the page says about a step's element, as the recorder
// would have recorded it (replay/browser's Described): its unit's kind
// (text, toggle, choice, action...), a choice's kind of list, role, label,
// the option a radio or an option found alone is, whether the choice holds
// a set, the DOM model's own selectors, a choice's options, its container,
// a box's state now ("true" or "false"), and an action's form as the
// recorder lists it at a destructive step (its fields, without values).
type Element struct {
	Kind, How, Role, Label, Member string
	Multiple                       bool
	Selectors                      []events.Selector
	Options                        []events.Option
	Container                      *events.Container
	State                          string
	Fields                         []events.Field
}

// Resolve reads each step's element on the live page it acts on and
// completes what the tool did not write, as a demonstration here would
// have recorded it: the role and name of an element the flow named
// without them, a click on a box as the box's state after it (from the
// state the page shows), text typed into a list as the choice of its
// option, a click on a radio or on an option of a list shown on the page
// (not a popup, whose opener's click the flow also holds) as the choice
// of its group or list, and a list's
// options, so an option given by its value is filed by its label.
//
// Resolve only reads: it opens the pages the flow navigates to and never
// clicks, types or submits, so the steps after a submit or a click that
// leads elsewhere (until the next navigation) stay as the tool wrote them.
// It returns a note for what it changed and what it could not reach.
func Resolve(ctx context.Context, f *Flow, p Page) ([]string, error) {
	var r resolution
	// closed says why no page the next steps act on is open, "" when one is.
	closed := "not resolved: the flow opens no page before it"
	for i := range f.Steps {
		s := &f.Steps[i]
		if s.Action == events.ActionNavigate {
			if s.Value == nil {
				continue
			}
			closed = ""
			if err := p.Open(ctx, s.Value.Raw); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				closed = fmt.Sprintf("not resolved: the page of step %d did not open (%v)", s.Seq, err)
			}
			continue
		}
		if s.Enrichment == nil || len(s.Enrichment.Selectors) == 0 {
			continue
		}
		if closed != "" {
			r.add(closed, s.Seq)
			continue
		}
		el, ok, err := p.Describe(ctx, s.Enrichment.Selectors)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil || !ok:
			r.add("not resolved: no one element on the page as it loads", s.Seq)
		case s.Action == events.ActionSubmit:
			r.inventory(s, el) // the submit's element may be a field Enter was pressed in
		default:
			r.apply(f, s, el)
			if s.Effect != nil || el.Kind == "action" {
				r.inventory(s, el) // a tool may not say which click filed the form
			}
		}
		if s.Action == events.ActionSubmit || s.Effect != nil && s.Effect.URL != "" {
			closed = "not resolved: on a page the flow reaches by a submit or a click, which resolving never sends"
		}
	}
	return r.notes(), nil
}

// resolution collects what Resolve did, step numbers by what, and each
// box's state as the flow's clicks leave it.
type resolution struct {
	steps map[string][]uint64
	order []string
	boxes map[string]bool
}

func (r *resolution) add(what string, seq uint64) {
	if r.steps == nil {
		r.steps = map[string][]uint64{}
	}
	if _, ok := r.steps[what]; !ok {
		r.order = append(r.order, what)
	}
	r.steps[what] = append(r.steps[what], seq)
}

func (r *resolution) notes() []string {
	out := make([]string, 0, len(r.order))
	for _, what := range r.order {
		out = append(out, numbered("step", r.steps[what])+": "+what)
	}
	return out
}

// apply completes step s with what the page says about its element.
func (r *resolution) apply(f *Flow, s *events.Step, el Element) {
	e := s.Enrichment
	switch {
	case el.Kind == "toggle" && s.Action == events.ActionClick:
		r.box(f, s, el)
	case el.Kind == "choice" && el.Member != "" && s.Action == events.ActionClick && (el.How == "radio" || el.How == "ariaradio" || el.How == "listbox" && !el.Multiple):
		s.Action = events.ActionSelect
		s.Value = &events.Value{Raw: el.Member, Type: events.ValueEnum}
		// The step is now on the group: the flow's selectors and name
		// were the radio's, which a select must not find as its element.
		e.Role, e.Label, e.Selectors = el.Role, el.Label, nil
		r.add("a click on a radio button or a list's option is the choice of its group or list", s.Seq)
	case el.Kind == "choice" && el.Member == "" && el.How != "autocomplete" && s.Action == events.ActionFill && s.Value != nil:
		s.Action = events.ActionSelect
		s.Value.Type = events.ValueEnum
		r.add("text typed into a list is the choice of its option", s.Seq)
	}
	if el.Member != "" && s.Action != events.ActionSelect {
		return // one option of a list the step did not choose from: leave it as written
	}
	if el.Role != "" && (e.Role == "" || s.Action != events.ActionClick || el.Kind == "toggle") {
		if e.Role != el.Role {
			r.add("its role is read from the page", s.Seq)
		}
		e.Role = el.Role
	}
	if e.Label == "" {
		e.Label = el.Label
	}
	e.Selectors = mergeSelectors(e.Selectors, el.Selectors)
	if len(e.Options) == 0 && len(el.Options) > 0 {
		e.Options = el.Options
		e.Multiple = el.Multiple
		r.add("the list's options are read from the page", s.Seq)
	}
	if e.Container == nil {
		e.Container = el.Container
	}
	if s.Action == events.ActionSelect && s.Value != nil && !e.Multiple {
		s.Value.Raw = optionLabel(e.Options, s.Value.Raw)
	}
}

// inventory gives a destructive step the form's fields, as a
// demonstration's step lists them: a column may then fill a field that no
// step of the flows set (a box the person left as it was).
func (r *resolution) inventory(s *events.Step, el Element) {
	if len(s.Fields) == 0 && len(el.Fields) > 0 {
		s.Fields = el.Fields
		r.add("the form's fields are read from the page", s.Seq)
	}
}

// box sets a click on a box to the state it leaves the box in: the
// tool's own check or uncheck as written, else the opposite of the box's
// state before the click (the page's, or the flow's last click on it).
func (r *resolution) box(f *Flow, s *events.Step, el Element) {
	key := boxKey(el)
	if r.boxes == nil {
		r.boxes = map[string]bool{}
	}
	before, seen := r.boxes[key]
	if !seen {
		before = el.State == "true"
	}
	after := !before
	if s.Value != nil && !slices.Contains(f.guessed, s.Seq) {
		after = s.Value.Raw == "true"
	} else {
		r.add(fmt.Sprintf("a click on a box leaves it %s, as the page shows it before", map[bool]string{true: "checked", false: "unchecked"}[after]), s.Seq)
	}
	r.boxes[key] = after
	s.Value = &events.Value{Raw: fmt.Sprint(after), Type: events.ValueText}
}

// boxKey names a box across steps: its most stable selector.
func boxKey(el Element) string {
	if len(el.Selectors) == 0 {
		return el.Role + "\x00" + el.Label
	}
	return el.Selectors[0].Strategy + "\x00" + el.Selectors[0].Value
}

// mergeSelectors keeps the flow's selectors and adds the page's, in
// reprise's order of stability.
func mergeSelectors(have, more []events.Selector) []events.Selector {
	t := &target{selectors: slices.Clone(have)}
	for _, s := range more {
		t.add(s.Strategy, s.Value)
	}
	return t.sorted()
}

// optionLabel is the label of the option v names by its label or by its
// value, v itself when no option does.
func optionLabel(opts []events.Option, v string) string {
	for _, o := range opts {
		if strings.EqualFold(strings.TrimSpace(o.Label), strings.TrimSpace(v)) {
			return o.Label
		}
	}
	for _, o := range opts {
		if o.Value != "" && strings.EqualFold(strings.TrimSpace(o.Value), strings.TrimSpace(v)) {
			return o.Label
		}
	}
	return v
}
