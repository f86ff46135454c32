package browser

import (
	"context"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// Described is what the recorder would have recorded about the element a
// step's selectors find, as the extension's enrichment says it, read from
// the live page: how an imported step whose tool wrote less (a name
// without its role, a click on a box, text typed into a list) learns what
// it acted on.
type Described struct {
	// Kind is the element's unit in the DOM model: text, toggle, choice,
	// date, range, file, action; "" for an element that is none.
	Kind string `json:"kind"`
	// How is a choice's kind of list: select, radio, listbox, combo...
	How   string `json:"how"`
	Role  string `json:"role"`
	Label string `json:"label"`
	// Member is the option's label when the selectors found one radio or
	// option of the choice described.
	Member string `json:"member"`
	// Multiple says the choice holds a set.
	Multiple bool `json:"multiple"`
	// Selectors are the DOM model's own for the element, most stable first.
	Selectors []events.Selector `json:"selectors"`
	// Options are a choice's closed set (none for an autocomplete).
	Options   []events.Option   `json:"options"`
	Container *events.Container `json:"container"`
	// State is a box's state on the page now: "true" checked, "false" not.
	State string `json:"state"`
	// Fields are an action's form as the recorder lists it at a
	// destructive step (no values): what a column may fill though no
	// step of an imported flow set it.
	Fields []events.Field `json:"fields"`
}

type describeAnswer struct {
	Described
	Ready bool `json:"ready"`
	Hit   bool `json:"hit"`
}

// Describe finds the element sels name (exactly one visible match, as a
// step's find) and describes it, waiting up to within for a page that
// renders after its load event. ok is false when no selector finds one
// element. It reads only: nothing is clicked, typed or sent.
func (e *Executor) Describe(ctx context.Context, sels []skills.Selector, within time.Duration) (d Described, ok bool, err error) {
	cctx, stop := e.bind(ctx)
	defer stop()
	args := map[string]any{"selectors": jsSelectors(sels), "fields": true}
	deadline := time.Now().Add(within)
	for {
		a, err := chromedp.Run(cctx, pageOp[describeAnswer](e.world, "describe", args))
		if err == nil && a.Ready && a.Hit {
			return a.Described, true, nil
		}
		if time.Now().After(deadline) {
			return Described{}, false, err
		}
		select {
		case <-ctx.Done():
			return Described{}, false, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
