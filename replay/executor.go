// Package replay runs a skill once per CSV row (SPEC section 11), as an
// event-sourced run on the REPLAY stream: the engine plans the run and
// publishes a command for each step, an executor consumes the commands and
// publishes their outcomes, and every state of the run (which rows are
// committed, failed or unknown) is folded from those events.
package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/skills"
)

// How an executor found the element a step acts on.
const (
	ViaTarget = "target" // the step's target selector matched exactly one element
	ViaDOM    = "dom"    // a DOM selector matched exactly one visible element
	ViaAX     = "ax"     // the accessibility path did
	ViaVisual = "visual" // a model grounded it on a live screenshot
	ViaModel  = "model"  // a model chose it from the page's elements (ai: on_miss, every_run)
	ViaCache  = "cache"  // the replay cache: what a model chose before, on this host
	ViaPinned = "pinned" // the step's pinned steps for this system
	ViaFloor  = "floor"  // synthetic input at the recorded point (no element found)
	ViaNone   = ""       // the step needs no element (navigate, a wait)
)

// Step is one step of one row, ready to run: its placeholders already
// replaced by the row's values.
type Step struct {
	Row   int // the CSV row, from 1
	Index int // the step's index in the skill, from 0
	skills.Step
	// DryRun fills but does not commit: a destructive step is not run.
	DryRun bool
	// Filled are the row's values the plan put into the step's target and
	// checks: Mask hides them in what goes to the log.
	Filled []string
	// Artifacts is the row's folder for what the step saves (downloads,
	// screenshots); empty when the run keeps none.
	Artifacts string
	// Last says this is the row's last step.
	Last bool
	// Template is the skill's step as written, its placeholders kept, and
	// Values the row's values by parameter: what a model is told and how
	// its placeholders are filled. In memory only, never in the log.
	Template skills.Step
	Values   map[string]string
	// EchoOf are the placeholders the values in Echo come from, in order:
	// what a message names instead of a value.
	EchoOf []string
}

// Mask replaces every row value the step's target and checks were filled
// with, so a message naming a selector or a check quotes no field value.
func (s Step) Mask(text string) string {
	for _, v := range s.Filled {
		if v != "" {
			text = strings.ReplaceAll(text, v, "•••")
		}
	}
	return text
}

// Attempt is one selector tried, and how many visible elements it matched.
type Attempt struct {
	Strategy string `json:"strategy" msgpack:"strategy"`
	Matches  int    `json:"matches" msgpack:"matches"`
	// Unproven says the selector matched one element that was not the
	// step's (another role or name): a candidate refused, never acted on.
	Unproven bool `json:"unproven,omitempty" msgpack:"unproven,omitempty"`
}

// Outcome is what running a step did. It carries no field values: it goes
// to the log.
type Outcome struct {
	OK bool `json:"ok" msgpack:"ok"`
	// Via is how the element was found (ViaDOM...), and Selector which of
	// the step's selectors matched (its index), when one did.
	Via      string `json:"via,omitempty" msgpack:"via,omitempty"`
	Selector int    `json:"selector" msgpack:"selector"`
	// Tried lists every selector tried, in order, with its matches.
	Tried []Attempt `json:"tried,omitempty" msgpack:"tried,omitempty"`
	// Error says, for a person, what went wrong: the step, the selectors
	// tried and what each matched, or the read-back that did not hold.
	Error string `json:"error,omitempty" msgpack:"error,omitempty"`
	// PageMessage is what the page showed when a submit was refused (a
	// validation message), cut short. A site may quote the row's values in
	// it, so it never goes to the log: Serve hands it to the engine in
	// memory, for the report only.
	PageMessage string `json:"-" msgpack:"-"`
	// Files are what the step saved in the row's artifacts (downloads,
	// screenshots), and Output the download the step was to keep as the
	// row's output. A site names its downloads, maybe after the row's
	// values: like PageMessage they never go to the log.
	Files  []string `json:"-" msgpack:"-"`
	Output string   `json:"-" msgpack:"-"`
	// Notes say what the browser did around the step, for the report and
	// the log: requests blocked by host, dialogs accepted, a page the site
	// refused. They name hosts and kinds, never a value.
	Notes []string `json:"notes,omitempty" msgpack:"notes,omitempty"`
	// Refused says the site refused the page (a bot check, 403 or 429): a
	// run that goes on slows down.
	Refused bool `json:"refused,omitempty" msgpack:"refused,omitempty"`
	// Skipped says the step's when did not hold: it did nothing.
	Skipped bool `json:"skipped,omitempty" msgpack:"skipped,omitempty"`
	// Missed says the step failed because its element was not found (no
	// selector matched exactly one): a model may find it (ai: on_miss).
	Missed bool `json:"missed,omitempty" msgpack:"missed,omitempty"`
	// Healed says what a model changed for the step to go through, for
	// the report; elements by role and name, typed text by placeholder.
	Healed []string `json:"healed,omitempty" msgpack:"healed,omitempty"`
	// ModelCalls and Tokens count the model requests the step cost.
	ModelCalls int `json:"model_calls,omitempty" msgpack:"model_calls,omitempty"`
	Tokens     int `json:"tokens,omitempty" msgpack:"tokens,omitempty"`
	// ReadBack is how many fields of the row a destructive step read back
	// again, all holding what was filled, right before it ran.
	ReadBack int `json:"read_back,omitempty" msgpack:"read_back,omitempty"`
	// Echoed is how many of the row's values the page after a destructive
	// step showed, as the demonstrations' pages did (the step's echo).
	Echoed int `json:"echoed,omitempty" msgpack:"echoed,omitempty"`
	// Committed says a destructive step ran and its assert held.
	Committed bool `json:"committed,omitempty" msgpack:"committed,omitempty"`
	// Sent says a destructive step may have reached the site: a request
	// left the page after the action (a form post, the page's own fetch or
	// XHR other than GET) or the page navigated. A destructive step that
	// ran without its assert holding is unknown when Sent, failed when not
	// (nothing left the page) or when the site refused it (Status 4xx).
	Sent bool `json:"sent,omitempty" msgpack:"sent,omitempty"`
	// Status is the HTTP status of the last request the step sent, 0 when
	// none was seen or it got no answer.
	Status int `json:"status,omitempty" msgpack:"status,omitempty"`
	// Watched says the executor watched what left the page during the
	// step, so Sent false proves nothing did. An executor that cannot
	// watch leaves it false: a destructive step of its that failed is then
	// unknown, never failed.
	Watched bool `json:"watched,omitempty" msgpack:"watched,omitempty"`
}

// NotFiled reports whether a destructive step that did not succeed surely
// filed nothing: nothing left the page, or the site refused it (a 4xx).
func (o Outcome) NotFiled() bool {
	return o.Watched && !o.Sent || o.Status >= 400 && o.Status < 500
}

// ErrNeedsPerson is returned for a step the executor must never do itself
// (a secret field): the person does it.
var ErrNeedsPerson = errors.New("this step is for the person to do")

// Executor runs steps on one target (a browser, a desktop). Each call runs
// one step to its end, read-back and assert included, and reports it; the
// engine calls it for one row's steps in order, never concurrently.
type Executor interface {
	// Do runs st. A step that failed is an Outcome with OK false and an
	// Error, not a Go error; a Go error means the executor itself broke
	// (the browser is gone) and the run cannot go on.
	Do(ctx context.Context, st Step) (Outcome, error)
	// Verify opens the skill's verification for a row and reports whether
	// the site shows the row filed.
	Verify(ctx context.Context, v skills.Verification) (bool, error)
	// Snapshot saves what the executor shows now (a screenshot of the
	// filled page, for a dry run without a display) and returns its path.
	Snapshot(ctx context.Context, path string) error
	Close() error
}

// Batcher is an Executor that runs a run of steps in one go (one page call
// for a run of fields). DoBatch returns the outcomes of the steps it ran,
// in order: all of them, or up to and including the first that failed.
type Batcher interface {
	DoBatch(ctx context.Context, steps []Step) ([]Outcome, error)
}

// Batchable says whether a step may run in a batch with its neighbours: a
// fill or select that files nothing, with no wait or when of its own, and
// no secret. A batch ends before anything that could leave the page.
func Batchable(st skills.Step) bool {
	return (st.Action == "fill" || st.Action == "select") && !st.Destructive && !st.Secret &&
		st.Wait == nil && st.When == nil && st.If == ""
}

// DoEach runs steps one by one on exec, stopping after the first that
// failed: DoBatch for an executor that has no faster way.
func DoEach(ctx context.Context, exec Executor, steps []Step) ([]Outcome, error) {
	outs := make([]Outcome, 0, len(steps))
	for _, st := range steps {
		if st.If != "" && st.If != "true" {
			// The row leaves the box that shows this field unticked: the
			// field is not there to fill, and the row says nothing for it.
			outs = append(outs, Outcome{OK: true, Skipped: true, Selector: -1})
			continue
		}
		out, err := exec.Do(ctx, st)
		if err != nil {
			return outs, err
		}
		outs = append(outs, out)
		if !out.OK {
			break
		}
	}
	return outs, nil
}

// proofsOf says what a step's outcome proves of its row, for the report:
// the row read back whole right before its destructive step, and the
// site's success signal after it (the step's assert held). A step that
// proves nothing of the row says nothing.
func proofsOf(st skills.Step, index int, o Outcome) []string {
	var out []string
	ref := fmt.Sprintf("step %d (%s)", index+1, st.Action)
	if o.ReadBack > 0 {
		out = append(out, fmt.Sprintf("read back before %s: %d %s held what was filled", ref, o.ReadBack, plural(o.ReadBack, "field", "fields")))
	}
	if o.Committed {
		out = append(out, fmt.Sprintf("the site's success signal after %s", ref))
	}
	if o.Echoed > 0 {
		out = append(out, fmt.Sprintf("the page after %s shows the row's %d %s", ref, o.Echoed, plural(o.Echoed, "value", "values")))
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
