// Package skills holds the skill format (SPEC section 10): a readable,
// versioned YAML document that replays a demonstrated task once per CSV row:
// its types, their YAML, validation, placeholders, and what each field means
// when it is unset. Building a skill from recordings is skills/learn's job;
// mapping a row's cells onto the values steps set is skills/cells'.
//
// A skill's values are constants or %name% placeholders naming a parameter;
// a parameter is joined to one CSV column. A literal percent sign in a value
// is written %%. The package is pure logic: no log, no network, no files.
package skills

import (
	"errors"
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/selector"
)

// CurrentVersion is the skill format version this build writes and reads.
const CurrentVersion = 1

// Skill is a parameterized task: what to do, in order, for every CSV row.
type Skill struct {
	Version          int         `yaml:"version"`
	Name             string      `yaml:"name"`
	SourceRecordings []string    `yaml:"source_recordings,flow,omitempty"`
	Parameters       []Parameter `yaml:"parameters,omitempty"`
	// DedupeKey names the parameters whose values identify a row, so replay
	// files every row exactly once (SPEC 11).
	DedupeKey []string `yaml:"dedupe_key,flow,omitempty"`
	// Ignore lists the CSV columns no step uses, by the person's answer:
	// every column of the sample CSV is a parameter's or is listed here.
	Ignore []Ignored `yaml:"ignore,omitempty"`
	// AI says how much a model decides for the steps that set none of
	// their own: never (the default), on_miss or every_run (see AIFor).
	AI string `yaml:"ai,omitempty"`
	// Browser sets up the browser a web skill replays in.
	Browser *Browser `yaml:"browser,omitempty"`
	Steps   []Step   `yaml:"steps"`
	// Verify tells, against the site, whether a row is already filed.
	// Replay runs it for a row whose destructive step may have run without
	// its commit mark (the process died between them); without it such a
	// row is reported unknown for the person to check.
	Verify *Verification `yaml:"verify,omitempty"`
}

// Verification opens URL (placeholders allowed) and checks Expect there:
// met means the row is on the site.
type Verification struct {
	URL    string    `yaml:"url"`
	Expect Condition `yaml:"expect,flow"`
}

// Parameter is one per-row value, read from one CSV column.
type Parameter struct {
	Name   string `yaml:"name"`   // snake_case; steps say %name%
	Column string `yaml:"column"` // the CSV header it is joined to
	// Type is a SPEC 4 value type other than secret, or boolean: a
	// checkbox's or switch's end state.
	Type string `yaml:"type"`
	// Optional lets a row's cell be empty: the field is left empty (a
	// choice unset) and read back as empty. Without it an empty cell
	// refuses the row before anything runs.
	Optional bool `yaml:"optional,omitempty"`
	// Options maps CSV cells onto what the step sets, as the person
	// confirmed them: an option's label for a choice, "true" or "false"
	// for a boolean. A cell that is an option's label or value (ignoring
	// case, accents and spacing), or a usual boolean word, needs no entry.
	Options map[string]string `yaml:"options,omitempty"`
	// Format writes a date parameter's ISO cell the way its field takes
	// it: "MM/DD/YYYY" for a masked field, "D", "MMMM" or "YYYY" for one
	// part of a date split across selects (see FormatDate). Empty: as is.
	Format string `yaml:"format,omitempty"`
	// Written is how the column writes a date parameter's cells, in the
	// tokens of Format ("MM/DD/YYYY", "DD.MM.YYYY", "MMMM D, YYYY"), read
	// from the sample rows when the skill was built. Empty: ISO 8601.
	Written string `yaml:"written,omitempty"`
	// Separator splits a list parameter's cell into its items ("; ", ",",
	// "|", or "\n" for one item per line), read from the sample rows when
	// the skill was built. Spaces around an item are ignored.
	Separator string `yaml:"separator,omitempty"`
}

// Ignored is a CSV column no step uses, or a field of the form that looks
// per-row but no column fills, by the person's answer: kept so that the
// skill accounts for every column and field and the question is not asked
// again. One of Column and Field is set.
type Ignored struct {
	Column string `yaml:"column,omitempty"`
	Field  string `yaml:"field,omitempty"`
	// Why is the person's reason, when they gave one.
	Why string `yaml:"why,omitempty"`
}

// Step is one action of the skill, with every way to find its element again.
type Step struct {
	Action string `yaml:"action"`
	// Target names the element in the selector model both executors
	// resolve first (role, name, id, in, near, nth); Selectors and AXPath
	// are the recorded strategies, kept as fallbacks.
	Target    *selector.Selector `yaml:"target,flow,omitempty"`
	Selectors []Selector         `yaml:"selectors,omitempty"`
	AXPath    *string            `yaml:"ax_path,omitempty"`
	Role      string             `yaml:"role,omitempty"`
	Label     string             `yaml:"label,omitempty"`
	URL       string             `yaml:"url,omitempty"`
	// Value is a constant or holds placeholders. For a checkbox click it is
	// the state the box must end in ("true" or "false"): replay clicks only
	// when the box is not already in that state. For a select it is the
	// option's label.
	Value string `yaml:"value,omitempty"`
	// Options are a choice control's options as recorded (label, and value
	// where it differs): the closed set a row's cell is mapped onto before
	// the row runs. Empty for an open list (an autocomplete), matched live.
	Options []Option `yaml:"options,omitempty"`
	// Multiple marks a select step on a control that holds a set (a tag
	// picker, a multi-select list, a group of boxes): its value is a list
	// parameter, and replay makes the control hold exactly the row's
	// items, adding what is missing and removing what is not wanted.
	Multiple bool `yaml:"multiple,omitempty"`
	// Half is the end of a range a fill step sets ("start" or "end"), on
	// a control that shows two dates picked in one calendar: replay picks
	// the start, then in the same calendar the end, and reads back the
	// end the step set.
	Half string `yaml:"half,omitempty"`
	// Keys says a demonstration's field reacted to keys (its script
	// rewrote what was typed, or refused a key): replay types the value
	// key by key. Without it replay may set a field's value whole, with
	// the events typing fires, and types only where that did not hold.
	Keys bool `yaml:"keys,omitempty"`
	// Secret marks a password field. It never carries a value, and replay
	// never types into it (SPEC 11): it hands the step to the person.
	Secret      bool       `yaml:"secret,omitempty"`
	Floor       Floor      `yaml:"floor"`
	ReadBack    *ReadBack  `yaml:"read_back,flow,omitempty"`
	Wait        *Condition `yaml:"wait,flow,omitempty"`
	Destructive bool       `yaml:"destructive,omitempty"`
	// Assert holds after the step: for a destructive step, what success
	// looked like in every demonstration. All conditions must hold.
	Assert Conditions `yaml:"assert,omitempty"`
	// Echo, on a destructive step, are the values the page after it showed
	// in every demonstration (a confirmation page, the saved record, a row
	// in a list), as placeholders ("%email%"): replay commits a row only
	// when the page after its step shows this row's values too, and reports
	// it unknown when one shows otherwise.
	Echo []string `yaml:"echo,flow,omitempty"`
	// Expect is what an expect step checks; When, on any step that files
	// nothing, skips the step unless it holds.
	Expect *Check `yaml:"expect,flow,omitempty"`
	When   *Check `yaml:"when,flow,omitempty"`
	// Prompt, As and Timeout make an ask step (ActionAsk): what the
	// person is asked, the name later steps use the answer by, and how
	// long the row waits for it (default an hour).
	Prompt  string `yaml:"prompt,omitempty"`
	As      string `yaml:"as,omitempty"`
	Timeout string `yaml:"timeout,omitempty"`
	// Dialog is how replay answers a JavaScript dialog the step opens:
	// "accept" (the default; a prompt gets its default text) or "dismiss",
	// as the person did when the demonstration's confirm was cancelled.
	Dialog string `yaml:"dialog,omitempty"`
	// Output names the file this step downloads as the row's output: the
	// report links it, and a row whose step downloads nothing fails.
	Output bool `yaml:"output,omitempty"`
	// If is a boolean parameter's placeholder ("%gift_wrap%"): the step
	// runs only for a row where it is true. A field that a box shows
	// when ticked is filled only in the rows that tick the box.
	If string `yaml:"if,omitempty"`
	// AI overrides the skill's AI for this step.
	AI string `yaml:"ai,omitempty"`
	// Recorded are the step's pinned steps per system: they run ahead of
	// its recording and the host's replay cache (see Pins).
	Recorded *Pins `yaml:"recorded,omitempty"`
}

// Option is one choice of a choice control.
type Option struct {
	Label string `yaml:"label"`
	Value string `yaml:"value,omitempty"`
}

// Conditions are checked together: all must hold. One condition may be
// written as a single mapping.
type Conditions []Condition

// Selector is one way to find the element, as in the trajectory schema.
type Selector struct {
	Strategy string `yaml:"strategy"`
	Value    string `yaml:"value"`
}

// Floor is the fallback data of the first recording's step: the frame the
// person saw, where they clicked, and in which app and window. Visual
// grounding uses it when no selector matches.
type Floor struct {
	ScreenshotRef string `yaml:"screenshot_ref,omitempty"`
	Cursor        []int  `yaml:"cursor,flow,omitempty"`
	ActiveApp     string `yaml:"active_app,omitempty"`
	ActiveWindow  string `yaml:"active_window,omitempty"`
}

// ReadBack says what the element must show after a mutating step.
type ReadBack struct {
	Kind   string `yaml:"kind"`   // one of the ReadBack... kinds
	Expect string `yaml:"expect"` // a constant or placeholders
}

// Condition is a wait before a step or an assert after it.
type Condition struct {
	Kind    string `yaml:"kind"`              // one of the Cond... kinds
	Value   string `yaml:"value,omitempty"`   // the text, element or URL part
	Timeout string `yaml:"timeout,omitempty"` // a Go duration such as "10s"
}

// Read-back kinds.
const (
	ReadBackValue    = "value"    // the field holds Expect
	ReadBackSelected = "selected" // the option Expect is selected
	ReadBackChecked  = "checked"  // the box's checked state is Expect ("true"/"false")
	ReadBackSet      = "set"      // exactly the options Expect lists (one per line) are chosen
)

// Condition kinds for waits and asserts.
const (
	CondURLChanged   = "url_changed"   // the URL differs from the one before the step
	CondURLUnchanged = "url_unchanged" // the URL is the one before the step
	CondURLContains  = "url_contains"  // the URL contains Value
	CondText         = "text"          // Value is visible on the page
	CondElement      = "element"       // the element Value (a CSS selector) exists
	CondFormReset    = "form_reset"    // the step's form is back to empty or its defaults
	CondRequestOK    = "request_ok"    // the request the step sent was answered 2xx or 3xx
)

// TypeBoolean is the parameter type of a checkbox's or switch's state.
const TypeBoolean = "boolean"

// TypeList is the parameter type of a control that holds several options
// at once: one cell lists them, split by the parameter's Separator. The
// value a step gets is the items' option labels, one per line.
const TypeList = "list"

// ErrMissingColumn is returned by CheckHeader when a CSV lacks a column a
// parameter is joined to.
var ErrMissingColumn = errors.New("missing CSV column")

// CheckHeader reports, before any row runs, every parameter whose column is
// not in header. The error names the parameters, their columns and the
// columns the CSV has, so the person can rename one or the other.
func (s *Skill) CheckHeader(header []string) error {
	have := make(map[string]bool, len(header))
	for _, h := range header {
		have[strings.TrimSpace(h)] = true
	}
	var missing []string
	for _, p := range s.Parameters {
		if !have[p.Column] {
			missing = append(missing, fmt.Sprintf("%s (column %q)", p.Name, p.Column))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%w: the CSV has no column for %s; its columns are %s: rename the CSV column or rebuild the skill",
		ErrMissingColumn, strings.Join(missing, ", "), quoteList(header))
}

func quoteList(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// OptionsOf returns the closed set of options of the choice step whose
// value is the parameter name's placeholder, or nil for none (a text
// field, an open list).
func (s *Skill) OptionsOf(name string) []Option {
	for _, st := range s.Steps {
		if st.Value == Placeholder(name) && len(st.Options) > 0 {
			return st.Options
		}
	}
	return nil
}
