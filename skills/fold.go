package skills

import (
	"slices"

	"github.com/reprise-dev/reprise/events"
)

// foldClickSubmits makes one submit step of a click on a button and the
// submit of its form that the click caused: the recorder sees both, but it
// is one action of the person's. Replayed as two, the click would submit
// and leave the page, and the submit would find no form. The step keeps the
// button's selectors, so replay submits through that button. The caller's
// recordings are left as they are.
func foldClickSubmits(recs []events.Recording) []events.Recording {
	out := make([]events.Recording, len(recs))
	for i, r := range recs {
		steps := make([]events.Step, 0, len(r.Steps))
		for j := 0; j < len(r.Steps); j++ {
			st := r.Steps[j]
			if j+1 < len(r.Steps) && st.Action == events.ActionClick && isButton(st) && r.Steps[j+1].Action == events.ActionSubmit {
				st.Action = events.ActionSubmit
				j++ // the form's submit is this click's effect
			}
			steps = append(steps, st)
		}
		r.Steps = slices.Clip(steps)
		out[i] = r
	}
	return out
}

func isButton(st events.Step) bool {
	return st.Enrichment != nil && st.Enrichment.Role == "button"
}
