package interop

import (
	"fmt"
	"net/mail"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// flowBuilder writes an imported flow's steps in the trajectory schema, as
// the browser extension would have recorded them.
type flowBuilder struct {
	flow    Flow
	url     string // the page the steps act on
	entered bool   // a value was entered since the page loaded
	// clickLine is the line of the last click, for the note when the
	// click turns out to have only focused a field.
	clickLine int
	// absorbed groups lines by what was absorbed, for one note each.
	absorbed map[string][]int
	order    []string
}

func newFlowBuilder(format, title string) *flowBuilder {
	return &flowBuilder{flow: Flow{Format: format, Title: title}, absorbed: map[string][]int{}}
}

// step appends a step and returns it for the caller to complete.
func (b *flowBuilder) step(action string) *events.Step {
	n := len(b.flow.Steps) + 1
	b.flow.Steps = append(b.flow.Steps, events.Step{
		Seq: uint64(n), TS: float64(n), Actor: events.ActorHuman, Action: action,
		Cursor: []int{0, 0}, ActiveApp: "Chromium", Outcome: events.OutcomeOK,
	})
	return &b.flow.Steps[n-1]
}

// last is the last step, or nil.
func (b *flowBuilder) last() *events.Step {
	if len(b.flow.Steps) == 0 {
		return nil
	}
	return &b.flow.Steps[len(b.flow.Steps)-1]
}

func (b *flowBuilder) navigate(url string) {
	s := b.step(events.ActionNavigate)
	s.Value = &events.Value{Raw: url, Type: events.ValueText}
	b.url, b.entered = url, false
}

// fill enters value into the field t: a password's value is never kept.
func (b *flowBuilder) fill(t *target, value string, line int) {
	b.dropFocusClick(t, line)
	if t.role == "" {
		t.role = "textbox"
	}
	s := b.step(events.ActionFill)
	s.Enrichment = t.enrichment(b.url)
	switch {
	case t.looksSecret():
		s.Value = &events.Value{Type: events.ValueSecret}
		b.note(fmt.Sprintf("line %d: a password field's value was not imported; replay asks for it", line))
	case isEmail(value):
		s.Value = &events.Value{Raw: value, Type: events.ValueEmail}
	default:
		s.Value = &events.Value{Raw: value, Type: events.ValueText}
	}
	b.entered = true
}

// choose picks the option value (its label or its value) in the list t.
func (b *flowBuilder) choose(t *target, value string, line int) {
	b.dropFocusClick(t, line)
	if t.role == "" {
		t.role = "combobox"
	}
	s := b.step(events.ActionSelect)
	s.Enrichment = t.enrichment(b.url)
	s.Value = &events.Value{Raw: value, Type: events.ValueEnum}
	b.entered = true
}

// dropFocusClick absorbs the click just before a value is entered into
// the same field: the tools record the click that focused it, and reprise
// focuses a field itself.
func (b *flowBuilder) dropFocusClick(t *target, line int) {
	last := b.last()
	if last == nil || last.Action != events.ActionClick || last.Value != nil || last.Enrichment == nil {
		return
	}
	for _, s := range last.Enrichment.Selectors {
		if slices.Contains(t.selectors, s) {
			b.flow.Steps = b.flow.Steps[:len(b.flow.Steps)-1]
			b.absorb("a click on the field the next step fills: reprise focuses each field itself", b.clickLine)
			return
		}
	}
}

// click clicks t. state, when set, is the checkbox state it ends in; a
// click on a box without one checks it, as on a fresh form.
func (b *flowBuilder) click(t *target, state string, line int) *events.Step {
	guessed := state == "" && (t.role == "checkbox" || t.role == "switch")
	if guessed {
		state = "true"
		b.absorb("a click on a checkbox is taken to check it, as on a fresh form whose boxes are unchecked", line)
	}
	s := b.step(events.ActionClick)
	if guessed {
		b.flow.guessed = append(b.flow.guessed, s.Seq)
	}
	s.Enrichment = t.enrichment(b.url)
	b.clickLine = line
	if state != "" {
		s.Value = &events.Value{Raw: state, Type: events.ValueText}
		if t.role == "" {
			s.Enrichment.Role = "checkbox"
		}
		b.entered = true
	}
	return s
}

// submit sends the form t is in (a field the person pressed Enter in, or
// the form's button).
func (b *flowBuilder) submit(t *target) *events.Step {
	s := b.step(events.ActionSubmit)
	s.Enrichment = t.enrichment(b.url)
	b.entered = false
	return s
}

// navigated says the last step moved the page to url: a submit's effect.
func (b *flowBuilder) navigated(s *events.Step, url string) {
	if url == "" {
		return
	}
	if s.Effect == nil {
		s.Effect = &events.Effect{}
	}
	s.Effect.URL = url
	b.url = url
}

// absorb notes a step that needs no step of reprise's.
func (b *flowBuilder) absorb(why string, line int) {
	if _, ok := b.absorbed[why]; !ok {
		b.order = append(b.order, why)
	}
	b.absorbed[why] = append(b.absorbed[why], line)
}

func (b *flowBuilder) note(s string) { b.flow.Notes = append(b.flow.Notes, s) }

// done returns the flow with one note for each kind of absorbed step.
func (b *flowBuilder) done() (*Flow, error) {
	if len(b.flow.Steps) == 0 {
		return nil, &Error{Field: "steps", Problem: "no step reprise can replay: a flow needs at least one step that opens a page, enters a value or clicks"}
	}
	for _, why := range b.order {
		b.note(numbered("line", b.absorbed[why]) + ": " + why)
	}
	for i := range b.flow.Steps {
		if err := b.flow.Steps[i].Validate(); err != nil {
			return nil, &Error{Field: "steps", Problem: fmt.Sprintf("imported step %d does not fit the trajectory schema: %v", i+1, err)}
		}
	}
	b.flow.Notes = slices.Compact(b.flow.Notes)
	return &b.flow, nil
}

func isEmail(v string) bool {
	a, err := mail.ParseAddress(v)
	return err == nil && a.Address == v && a.Name == ""
}

// numbered names what a note is about: "line 4", "lines 4, 9".
func numbered[N int | uint64](what string, ns []N) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	if len(ns) > 1 {
		what += "s"
	}
	return what + " " + strings.Join(parts, ", ")
}
