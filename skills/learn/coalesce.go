package learn

import (
	"slices"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// coalesceRecordings rewrites what a recorder saw as several steps into the one
// action the person did, before alignment. The caller's recordings are left
// as they are.
func coalesceRecordings(recs []events.Recording) []events.Recording {
	out := make([]events.Recording, len(recs))
	for i, r := range recs {
		r.Steps = coalesceSteps(r.Steps)
		out[i] = r
	}
	return out
}

func coalesceSteps(in []events.Step) []events.Step {
	steps := make([]events.Step, 0, len(in))
	for j := 0; j < len(in); j++ {
		st := in[j]
		switch {
		// A click on a button and the submit of its form that the click
		// caused are one submit: replayed as two, the click would submit
		// and leave the page, and the submit would find no form. The step
		// keeps the button's selectors, so replay submits through it.
		// A submit through another button (an imported flow's Save, then
		// the Confirm of the dialog it opened) is a step of its own.
		case j+1 < len(in) && st.Action == events.ActionClick && isButton(st) && in[j+1].Action == events.ActionSubmit && !otherButton(&st, &in[j+1]):
			st.Action = events.ActionSubmit
			if st.Effect == nil {
				st.Effect, st.Fields = in[j+1].Effect, in[j+1].Fields
			}
			j++
		// A field committed several times in a row (a date typed digit by
		// digit, a field that reformats) is one fill of its last value.
		case st.Action == events.ActionFill && j+1 < len(in) && in[j+1].Action == events.ActionFill && similarity(&st, &in[j+1]) >= strongMatch:
			continue
		// A page load right after a submit or a click on a button or link
		// is what that action did, not the person's: replay's action
		// causes it again, and going to the recorded address (a record's
		// page, /records/17) would be wrong for every other row.
		case st.Action == events.ActionNavigate && len(steps) > 0 && causesNavigation(steps[len(steps)-1]):
			continue
		case st.Action == events.ActionClick && radioRole(roleOf(&st)):
			st = radioAsChoice(st)
		// A set chosen item by item (a tag picker whose list closes after
		// each pick) is one choice of what it held last, while the page
		// took no other kind of step in between.
		// One choice seen twice, from its button and from its popup list
		// (a popover the button does not name): one step, the button's.
		case st.Action == events.ActionSelect && len(steps) > 0 && sameChoice(&steps[len(steps)-1], &st):
			continue
		// Its first pick may be recorded before the control showed it holds
		// a set (no chip yet): a choice on it is the set's too.
		case st.Action == events.ActionSelect && setAgain(in[j+1:], &st):
			continue
		}
		steps = append(steps, st)
	}
	return slices.Clip(steps)
}

// radioAsChoice reads a click on a radio button, as recorders before schema
// 1.1 wrote it, as a choice in its group: two demonstrations choosing
// different options are then one step whose option is a parameter, not a
// constant click on the first one's. Only a radio named by its group (a
// name selector) can be: the group is what replay finds.
func radioAsChoice(st events.Step) events.Step {
	e := st.Enrichment
	if e == nil {
		return st
	}
	group := strategyValue(e, events.StrategyName)
	if group == "" || st.Value == nil {
		return st
	}
	label := e.Label
	ec := *e
	ec.Selectors = []events.Selector{{Strategy: events.StrategyName, Value: group}}
	ec.Role, ec.Label = "radiogroup", ""
	st.Enrichment = &ec
	st.Action = events.ActionSelect
	v := *st.Value
	if label != "" {
		v.Raw = label // the option as the person saw it
	}
	v.Type = events.ValueEnum
	st.Value = &v
	return st
}

func causesNavigation(st events.Step) bool {
	return st.Action == events.ActionSubmit || st.Action == events.ActionClick && st.Enrichment != nil &&
		(st.Enrichment.Role == "button" || st.Enrichment.Role == "link")
}

func isButton(st events.Step) bool {
	return st.Enrichment != nil && st.Enrichment.Role == "button"
}

// otherButton reports whether submit names an element other than the
// button click was on: a recorded submit names its form, an imported one
// the element the tool saw clicked.
func otherButton(click, submit *events.Step) bool {
	e := submit.Enrichment
	return e != nil && e.Role != "form" && e.Label != "" && skills.Loose(e.Label) != skills.Loose(click.Enrichment.Label)
}

func multipleSelect(s *events.Step) bool {
	return s.Action == events.ActionSelect && s.Enrichment != nil && s.Enrichment.Multiple
}

// setAgain reports whether the same set control is chosen again later in
// rest, before a step that files, leaves or clicks.
func setAgain(rest []events.Step, st *events.Step) bool {
	for i := range rest {
		s := &rest[i]
		switch {
		case multipleSelect(s) && (similarity(st, s) >= strongMatch || sameSetControl(st, s)):
			return true
		case s.Action != events.ActionFill && s.Action != events.ActionSelect && s.Action != events.ActionUpload:
			return false
		}
	}
	return false
}

// sameSetControl reports whether two set steps name one control: its id,
// else its label and role (a picker re-rendered as chips come moves in
// the page, so its path changes between picks).
func sameSetControl(a, b *events.Step) bool {
	if id := strategyValue(a.Enrichment, events.StrategyID); id != "" {
		return id == strategyValue(b.Enrichment, events.StrategyID)
	}
	return a.Enrichment.Label != "" && skills.Loose(a.Enrichment.Label) == skills.Loose(b.Enrichment.Label) && a.Enrichment.Role == b.Enrichment.Role
}

// sameChoice reports whether b repeats a's choice: both select steps, one
// label, one value.
func sameChoice(a, b *events.Step) bool {
	return a.Action == events.ActionSelect && b.Action == events.ActionSelect && a.Enrichment != nil && b.Enrichment != nil &&
		a.Enrichment.Label != "" && skills.Loose(a.Enrichment.Label) == skills.Loose(b.Enrichment.Label) &&
		a.Value != nil && b.Value != nil && a.Value.Raw == b.Value.Raw
}
