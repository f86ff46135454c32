package heal

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/reprise-dev/reprise/model"
)

// Kinds of action a model may answer with: the step itself on an element
// (reprise types or chooses the row's value itself: the model never sees
// it, nor chooses what is typed), or a click before it (a banner to
// dismiss, a section to open).
const (
	KindStep  = "step"
	KindClick = "click"
)

// answer is a model's answer as sent: exactly one of an action, done or
// ask. Every field is a pointer so that a missing one is told apart from
// an empty one.
type answer struct {
	Action  *string `json:"action"`
	Element *string `json:"element"`
	Done    *bool   `json:"done"`
	Ask     *string `json:"ask"`
}

// Move is a model's answer once checked: an action on an element of the
// outline it was shown (Ref indexes the page's elements), or Done, or Ask.
type Move struct {
	Kind string // KindStep or KindClick; "" for Done or Ask
	Ref  int
	Done bool
	Ask  string
}

// maxAsk bounds a model's question: it is shown to a person, cut short.
const maxAsk = 300

// decode checks a model's answer against the outline it was shown (refs
// are the element refs listed): exactly one of an action on a listed
// element, done, or a question. The error says why, for the one
// correction the model gets.
func decode(text string, refs map[string]int) (Move, error) {
	a, err := model.DecodeJSON[answer](text)
	if err != nil {
		return Move{}, fmt.Errorf("answer with one JSON object as the instructions show: %v", err)
	}
	set := 0
	for _, ok := range []bool{a.Action != nil, a.Done != nil, a.Ask != nil} {
		if ok {
			set++
		}
	}
	if set != 1 {
		return Move{}, errors.New(`answer with exactly one of "action", "done" or "ask"`)
	}
	switch {
	case a.Done != nil:
		if !*a.Done || a.Element != nil {
			return Move{}, errors.New(`"done" is true, alone`)
		}
		return Move{Done: true}, nil
	case a.Ask != nil:
		q := strings.TrimSpace(*a.Ask)
		if q == "" || a.Element != nil {
			return Move{}, errors.New(`"ask" is a question, alone`)
		}
		if len(q) > maxAsk {
			q = q[:maxAsk] + "..."
		}
		return Move{Ask: q}, nil
	}
	m := Move{Kind: *a.Action}
	if m.Kind != KindStep && m.Kind != KindClick {
		return Move{}, fmt.Errorf(`action %s is not "step" or "click"`, strconv.Quote(short(m.Kind)))
	}
	if a.Element == nil {
		return Move{}, errors.New(`an action names its "element" (such as "e3")`)
	}
	ref, ok := refs[*a.Element]
	if !ok {
		return Move{}, fmt.Errorf("element %s is not in the list: answer with a ref from it", strconv.Quote(short(*a.Element)))
	}
	m.Ref = ref
	return m, nil
}

// short cuts what a model wrote before it is quoted back to it.
func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
