// Package learn builds a skill from recordings (SPEC section 10): it
// aligns the demonstrations step by step, tells parameters from constants,
// joins each parameter to a CSV column, and asks the person what the
// recordings cannot tell. What it builds is a skills.Skill; the answers are
// Confirm entries (see ParseConfirm). It is pure logic: no log, no network,
// no files.
package learn

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

var (
	// ErrNoRecordings is returned when Generalize is given nothing to learn from.
	ErrNoRecordings = errors.New("no recordings to build a skill from")
	// ErrUnconfirmed is returned by Final while a question is open: a skill
	// with an unconfirmed parameter does not save (SPEC 10).
	ErrUnconfirmed = errors.New("the skill has unconfirmed parameters")
	// ErrBadAnswer is returned when a Confirm entry does not fit the draft.
	ErrBadAnswer = errors.New("bad answer")
)

// Options steer Generalize.
type Options struct {
	// Name is the skill's name, required.
	Name string
	// Header is the CSV's header row. Without it, each parameter's column
	// is its field's label, and replay's CheckHeader finds what is missing.
	Header []string
	// SampleRows are CSV rows in Header's order. A demonstrated value found
	// in a column is the strongest evidence for joining to that column.
	SampleRows [][]string
	// Confirm holds the person's answers: parameter name to a column, or
	// ConstAnswer (see ParseConfirm).
	Confirm map[string]string
	// DedupeKey overrides the default dedupe key (see Generalize).
	DedupeKey []string
}

// Draft is a skill with what the person still has to answer.
type Draft struct {
	Skill     *skills.Skill
	Questions []Question
	// Notes report what Generalize decided that the person should know:
	// steps left out, secret steps, inferred checkbox states, guessed asserts.
	Notes []string
	// Demonstrated are the rows the recordings filed by hand: replay must
	// not file them again. They hold values: keep them in memory, never in
	// a log or the skill.
	Demonstrated []Demonstration
}

// Demonstration is one row a recording filed by hand.
type Demonstration struct {
	RecordingID string
	// Cells maps parameter names to the row's cells: the sample CSV's row
	// the recording demonstrated when it is found there, else what the
	// recording entered.
	Cells map[string]string
}

// Ready reports whether every question is answered.
func (d *Draft) Ready() bool { return len(d.Questions) == 0 }

// Final returns the skill to save, or an error wrapping ErrUnconfirmed that
// lists the open questions, or Validate's error.
func (d *Draft) Final() (*skills.Skill, error) {
	if !d.Ready() {
		lines := make([]string, len(d.Questions))
		for i, q := range d.Questions {
			lines[i] = "  - " + q.Text
		}
		return nil, fmt.Errorf("%w: answer %d question(s) first:\n%s", ErrUnconfirmed, len(d.Questions), strings.Join(lines, "\n"))
	}
	if err := d.Skill.Validate(); err != nil {
		return nil, fmt.Errorf("the generalized skill is invalid: %w", err)
	}
	return d.Skill, nil
}

// Generalize turns demonstrations of one task into a draft skill.
//
// The recordings are aligned step by step (see align). A step some
// recordings did and others did not (a dismissed popup) is left out and
// reported in Notes, except a checkbox click, whose state in the other rows
// is the opposite of the one clicked to. Of the values of aligned steps,
// what changed between recordings is a parameter, what did not is a
// constant, except that a field labelled as per-row data (a name, an email,
// an amount...) with an unchanged value is asked about. With one recording,
// every value except navigation is asked about. A password step keeps no
// value: it is marked secret and the person types it at replay.
//
// Parameters are named from their labels and joined to CSV columns (see
// join); a join that is ambiguous or finds no column is asked about.
// Submit steps, and clicks on a commit button (Save, Submit, Create, Pay,
// Delete...) after which the page takes no more input, are destructive and
// get a url_changed assert. The default dedupe key is the email and id-like
// parameters, else all parameters.
func Generalize(recs []events.Recording, opts Options) (*Draft, error) {
	if len(recs) == 0 {
		return nil, ErrNoRecordings
	}
	if strings.TrimSpace(opts.Name) == "" {
		return nil, errors.New("the skill needs a name")
	}
	for i := range recs {
		if err := recs[i].Validate(); err != nil {
			return nil, fmt.Errorf("recording %d: %w", i+1, err)
		}
		if len(recs[i].Steps) == 0 {
			return nil, fmt.Errorf("recording %d has no steps: record the task again", i+1)
		}
	}
	recs = coalesceRecordings(recs)
	cols, err := align(recs)
	if err != nil {
		return nil, err
	}
	g := &builder{n: len(recs), recs: recs, opts: opts, names: map[string]int{}}
	g.skill = &skills.Skill{Version: skills.CurrentVersion, Name: strings.TrimSpace(opts.Name)}
	for _, r := range recs {
		g.skill.SourceRecordings = append(g.skill.SourceRecordings, r.RecordingID)
	}
	for _, c := range cols {
		if err := g.column(c); err != nil {
			return nil, err
		}
	}
	if err := g.resolve(); err != nil {
		return nil, err
	}
	if err := g.account(); err != nil {
		return nil, err
	}
	if err := g.finish(); err != nil {
		return nil, err
	}
	if hosts := ProposeDomains(g.skill); len(hosts) > 0 {
		g.note("The demonstrations used %s. To keep replays on them, add to the skill:  browser: {allowed_domains: [%s]}  and the hosts its scripts and images load from: a replay's report names each host the list blocks.",
			strings.Join(hosts, ", "), strings.Join(hosts, ", "))
	}
	return &Draft{Skill: g.skill, Questions: g.questions, Notes: g.notes, Demonstrated: g.demonstrated()}, nil
}

// builder carries one generalization.
type builder struct {
	n     int
	recs  []events.Recording
	opts  Options
	skill *skills.Skill
	// cols[i] is what the recordings did for skill step i; nil for a step
	// added from an answer.
	cols      []column
	cands     []*candidate
	demo      []int // the sample row each recording demonstrated, once found
	names     map[string]int
	questions []Question
	notes     []string
}

// candidate is a value that may be a parameter: one per step with a value.
type candidate struct {
	name, label string
	step        int      // index in skill.Steps
	values      []string // per recording
	typ         string
	unknown     bool // the value was redacted at capture
	asked       bool // not confirmed: a question is open
	constant    bool
	column      string // the joined or suggested column
	readBack    string // the read-back kind, "" for none
	// prefix and suffix surround the value in the step: the constant
	// parts of a URL whose middle is per row.
	prefix, suffix string
	// options are a choice's closed set; mapping the person's cell to
	// option answers; optional lets a cell be empty.
	options  []skills.Option
	mapping  map[string]string
	optional bool
	// defaulted says a recording left the choice at the page's default:
	// its value there is unknown, not empty.
	defaulted bool
	// format writes a date column's cells the way the field takes them;
	// written is how the column writes them ("" for ISO).
	format, written string
	// sep splits a list column's cells into items.
	sep string
	// shownBy is the box whose ticking shows this step's field.
	shownBy *candidate
}

// column turns one aligned step into a skill step, or a note when dropped.
// It refuses to drop a step that files the row.
func (g *builder) column(c column) error {
	rep := c.rep()
	box := rep.Action == events.ActionClick && rep.Enrichment != nil && boxRole(rep.Enrichment.Role) && hasState(rep)
	var missing []int
	for k, s := range c {
		if s == nil {
			missing = append(missing, k)
		}
	}
	// A field the others' forms listed but no step set was left as it
	// was there (empty, or at its default): the step is a parameter, not
	// a one-off to drop, or the rows that need it would be filed without.
	untouched := len(missing) > 0 && settable(rep) && g.listedIn(rep, missing)
	// A field filled only where a box was ticked (a box that reveals it)
	// is the box's: its step runs in the rows that tick the box.
	var shownBy *candidate
	if len(missing) > 0 && !box && !untouched && settable(rep) {
		shownBy = g.revealedBy(c)
	}
	if len(missing) > 0 && !box && !untouched && shownBy == nil {
		if k, s, ok := g.filesRow(c); ok {
			return fmt.Errorf("%w: step %s of recording %d files the row, and %s filed it by no step like it: record again, filing each row the same way",
				ErrDifferentTasks, describe(s), k+1, recordingList(c, false))
		}
		g.note("Step %s was done in %s only: it is left out of the skill as a one-off (a dismissed popup?). If some rows need it, record it in each demonstration.",
			describe(rep), recordingList(c, true))
		return nil
	}
	st := stepFrom(rep)
	st.Target = targetOf(c)
	for _, s := range c {
		if s != nil && s.Enrichment != nil && s.Enrichment.Keyed {
			st.Keys = true // keyed in one demonstration: the page needs keys
		}
		if s != nil && s.Enrichment != nil && s.Enrichment.Dialog == skills.DialogDismiss {
			st.Dialog = skills.DialogDismiss // the person cancelled what it asked
		}
	}
	at := len(g.skill.Steps)
	g.skill.Steps = append(g.skill.Steps, st)
	g.cols = append(g.cols, c)
	switch {
	case anySecret(c):
		g.skill.Steps[at].Secret = true
		g.note("Step %d (%s) is a password field: the skill keeps no value for it: in a browser, replay asks you for it at every row (reprise runs answer); on the desktop it stops there for you to type it.", at+1, describe(rep))
	case box:
		vals := make([]string, g.n)
		present := ""
		for k, s := range c {
			if s != nil {
				vals[k], _ = boolState(s.Value.Raw)
				present = vals[k]
			}
		}
		for _, k := range missing {
			vals[k] = map[string]string{"true": "false", "false": "true"}[present]
		}
		if len(missing) > 0 {
			g.note("Step %d (%s) was clicked in %s only: in the others the box is taken to have stayed %s.",
				at+1, describe(rep), recordingList(c, true), map[string]string{"true": "unchecked", "false": "checked"}[present])
		}
		g.add(rep, at, vals, skills.TypeBoolean, skills.ReadBackChecked)
	case radioRole(roleOf(rep)) && rep.Action == events.ActionClick:
		g.skill.Steps[at].ReadBack = &skills.ReadBack{Kind: skills.ReadBackChecked, Expect: "true"}
	case rep.Action == events.ActionSelect:
		vals := make([]string, g.n)
		for k, s := range c {
			if s != nil {
				vals[k] = valueOf(s)
			}
		}
		opts := optionsOf(c)
		g.skill.Steps[at].Options = opts
		if multiple(c) {
			// A control that holds a set: its value is a list.
			g.skill.Steps[at].Multiple = true
			g.add(rep, at, vals, skills.TypeList, skills.ReadBackSet)
		} else {
			g.add(rep, at, vals, events.ValueEnum, skills.ReadBackSelected)
		}
		cand := g.cands[len(g.cands)-1]
		cand.options = opts
		if untouched {
			// Its value there is the page's default, which the recording
			// does not know: it changed, so it is a parameter, but not an
			// optional one on that account.
			cand.defaulted = true
			g.note("Step %d (%s) was left as the page had it in %s: its choice is a parameter.", at+1, describe(rep), recordingList(c, false))
		}
	case hasValue(rep):
		vals := make([]string, g.n)
		for k, s := range c {
			if s != nil {
				vals[k] = valueOf(s)
			}
		}
		g.add(rep, at, vals, typeOf(c), readBackFor(rep.Action)) // an untouched field is optional (settle)
	}
	if shownBy != nil && len(g.cands) > 0 && g.cands[len(g.cands)-1].step == at {
		g.cands[len(g.cands)-1].shownBy = shownBy
		g.note("Step %d (%s) was done only where %q was ticked (%s): it runs in the rows that tick it.",
			at+1, describe(rep), shownBy.label, recordingList(c, true))
	}
	return nil
}

// revealedBy returns the box, a step before c, that was ticked in exactly
// the recordings that did c: the box that shows c's field. nil for none.
func (g *builder) revealedBy(c column) *candidate {
	for _, b := range g.cands {
		if b.typ != skills.TypeBoolean || len(b.values) != g.n {
			continue
		}
		fits := true
		for k, s := range c {
			fits = fits && (b.values[k] == "true") == (s != nil)
		}
		if fits {
			return b
		}
	}
	return nil
}

// add makes a candidate for a step's value.
func (g *builder) add(rep *events.Step, at int, vals []string, typ, readBack string) {
	label := labelOf(rep)
	name := nameFor(label, selectorsOf(rep))
	if h := halfOf(rep); h != "" {
		name += "_" + h // a range's two dates: period_start, period_end
	}
	var prefix, suffix string
	if rep.Action == events.ActionNavigate {
		name = "url"
		// A URL that differs in one part keeps the rest constant:
		// /orders/%order_id%/edit, not a whole URL per CSV row.
		if p, s, middles, ok := urlPart(vals); ok && !allSame(vals) {
			prefix, suffix, vals = p, s, middles
			name = urlPartName(p)
			label = strings.ReplaceAll(name, "_", " ")
		}
	}
	g.names[name]++
	if n := g.names[name]; n > 1 {
		name = fmt.Sprintf("%s_%d", name, n)
	}
	unknown := rep.Redacted && rep.Value != nil && rep.Value.Raw == ""
	g.cands = append(g.cands, &candidate{name: name, label: label, step: at, values: vals,
		typ: typ, unknown: unknown, readBack: readBack, prefix: prefix, suffix: suffix})
}

// multiple reports whether a recording saw the step's control hold a set.
func multiple(c column) bool {
	for _, s := range c {
		if s != nil && s.Enrichment != nil && s.Enrichment.Multiple {
			return true
		}
	}
	return false
}

// settable reports whether a step sets a field's value: a field another
// recording may have left alone.
func settable(s *events.Step) bool {
	switch s.Action {
	case events.ActionFill, events.ActionSelect, events.ActionUpload:
		return s.Value != nil
	}
	return false
}

// listedIn reports whether every recording in ks listed the step's field
// in a form's inventory: the person saw it and left it.
func (g *builder) listedIn(s *events.Step, ks []int) bool {
	if s.Enrichment == nil {
		return false
	}
	f := events.Field{Label: s.Enrichment.Label, Role: s.Enrichment.Role, Name: strategyValue(s.Enrichment, events.StrategyName)}
	for _, k := range ks {
		found := false
		for _, st := range g.recs[k].Steps {
			for _, x := range st.Fields {
				found = found || sameField(x, f) || (f.Name == "" || x.Name == "") && skills.Loose(x.Label) == skills.Loose(f.Label) && f.Label != "" && roleFamily(x.Role) == roleFamily(f.Role)
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func hasValue(s *events.Step) bool {
	switch s.Action {
	case events.ActionClick, events.ActionSubmit:
		return false
	case events.ActionNavigate:
		return navURL(s) != ""
	}
	return s.Value != nil
}

func hasState(s *events.Step) bool {
	if s.Value == nil {
		return false
	}
	_, ok := boolState(s.Value.Raw)
	return ok
}

func valueOf(s *events.Step) string {
	if s.Action == events.ActionNavigate {
		return navURL(s)
	}
	if s.Value == nil {
		return ""
	}
	return s.Value.Raw
}

// typeOf is the recordings' value type when they agree, else text.
func typeOf(c column) string {
	t := ""
	for _, s := range c {
		if s == nil {
			continue
		}
		vt := events.ValueText
		if s.Value != nil && skills.ValidType(s.Value.Type) {
			vt = s.Value.Type
		}
		if s.Action == events.ActionSelect {
			vt = events.ValueEnum
		}
		if t != "" && t != vt {
			return events.ValueText
		}
		t = vt
	}
	return t
}

func readBackFor(action string) string {
	switch action {
	case events.ActionFill, events.ActionUpload:
		return skills.ReadBackValue
	case events.ActionSelect:
		return skills.ReadBackSelected
	}
	return ""
}

func anySecret(c column) bool {
	for _, s := range c {
		if s != nil && s.Value != nil && s.Value.Type == events.ValueSecret {
			return true
		}
	}
	return false
}

func (g *builder) note(format string, args ...any) {
	g.notes = append(g.notes, fmt.Sprintf(format, args...))
}

// recordingList names the recordings that did (or, with did false, did not)
// do the column's step: "recording 2", "recordings 1 and 3".
func recordingList(c column, did bool) string {
	var ks []string
	for k, s := range c {
		if (s != nil) == did {
			ks = append(ks, fmt.Sprint(k+1))
		}
	}
	if len(ks) == 1 {
		return "recording " + ks[0]
	}
	return "recordings " + strings.Join(ks[:len(ks)-1], ", ") + " and " + ks[len(ks)-1]
}

// describe names a step for a person: its action and label, no value.
func describe(s *events.Step) string {
	if l := labelOf(s); l != "" {
		return fmt.Sprintf("%s %q", s.Action, l)
	}
	if s.Action == events.ActionNavigate {
		return "navigate"
	}
	if s.ActiveWindow != "" {
		return fmt.Sprintf("%s in window %q", s.Action, s.ActiveWindow)
	}
	return s.Action
}

func labelOf(s *events.Step) string {
	if s.Enrichment == nil {
		return ""
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s.Enrichment.Label), ":*"))
}

// halfOf is the end of a range a step sets, "" for a whole value.
func halfOf(s *events.Step) string {
	if s.Enrichment == nil {
		return ""
	}
	return s.Enrichment.Half
}

func roleOf(s *events.Step) string {
	if s.Enrichment == nil {
		return ""
	}
	return s.Enrichment.Role
}

func selectorsOf(s *events.Step) []events.Selector {
	if s.Enrichment == nil {
		return nil
	}
	return s.Enrichment.Selectors
}

// stepFrom copies a recorded step's element and floor into a skill step.
func stepFrom(s *events.Step) skills.Step {
	st := skills.Step{Action: s.Action, Floor: skills.Floor{ScreenshotRef: s.ScreenshotRef,
		Cursor: slices.Clone(s.Cursor), ActiveApp: s.ActiveApp, ActiveWindow: s.ActiveWindow}}
	if len(st.Floor.Cursor) == 0 {
		st.Floor.Cursor = nil
	}
	if e := s.Enrichment; e != nil {
		for _, sel := range e.Selectors {
			st.Selectors = append(st.Selectors, skills.Selector{Strategy: sel.Strategy, Value: sel.Value})
		}
		if e.AXPath != nil {
			p := *e.AXPath
			st.AXPath = &p
		}
		st.Role, st.Label, st.URL = e.Role, e.Label, e.URL
		st.Half = e.Half
	}
	return st
}
