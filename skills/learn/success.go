package learn

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// Timeouts of a success check: the slowest demonstration, doubled, plus a
// margin, within bounds; and the guess when nothing was observed.
const (
	minSuccessWait = 5 * time.Second
	maxSuccessWait = 2 * time.Minute
	successMargin  = 3 * time.Second
	// minReadBack is the shortest value a success check looks for on the
	// page after the commit: shorter ones ("Pro", "12") turn up by chance.
	minReadBack = 4
	// legacyWait is the guessed check's timeout.
	legacyWait = "10s"
)

// markDestructive marks submit steps, and the last click on a commit
// button (Save, Submit, Create, Pay, Delete...) before the page ends, as
// destructive, and gives each what success looked like.
func (g *builder) markDestructive() error {
	steps := g.skill.Steps
	for i := len(steps) - 1; i >= 0; i-- {
		st := &steps[i]
		switch {
		// A submit that more input follows is a page of a multi-page form
		// (a wizard's Next): the row is filed by the last one. Were it
		// destructive, the check of the first rows, which runs no
		// destructive step, could never reach the next page.
		//
		// A submit a Confirm on its page follows, when nothing showed it
		// send anything, opened a dialog that asks first (an imported
		// flow's Save): the Confirm files the row.
		case st.Action == events.ActionSubmit && !inputAfter(steps[i+1:]) && !(committedAfter(steps[i+1:]) && sentNothing(g.effects(i))):
		case st.Action == events.ActionClick && st.ReadBack == nil && commitClick(steps[:i], skills.ButtonText(st)) && endsPage(steps[i+1:]) && !committedAfter(steps[i+1:]):
		default:
			continue
		}
		st.Destructive = true
		if err := g.success(i, st); err != nil {
			return err
		}
	}
	if !slices.ContainsFunc(steps, func(st skills.Step) bool { return st.Destructive }) {
		g.note("No step of this skill files a row (no submit, no click on Save, OK, Create...): replay will report a row committed once its steps are done and their values read back, whether or not the app kept anything. If filing takes a click, make sure every demonstration shows it.")
	}
	return nil
}

// commitClick reports whether a click on a button of this label commits
// the form its page filled. An OK does (a desktop dialog's form has no
// Save), unless a submit came before it on its page: then it only
// acknowledges the page's "Saved" message.
func commitClick(before []skills.Step, label string) bool {
	if !commitLabel(label) {
		return false
	}
	if tokens(label)[0] != "ok" {
		return true
	}
	for i := len(before) - 1; i >= 0 && before[i].Action != events.ActionNavigate; i-- {
		if before[i].Action == events.ActionSubmit {
			return false
		}
	}
	return true
}

// inputAfter reports whether a later step sets a field.
func inputAfter(rest []skills.Step) bool {
	for _, st := range rest {
		switch {
		case st.Action == events.ActionFill, st.Action == events.ActionSelect, st.Action == events.ActionUpload, st.ReadBack != nil:
			return true
		}
	}
	return false
}

// committedAfter reports whether a destructive step follows before the
// page ends: a Save that opens a "Create this customer?" dialog does not
// commit; its Confirm does.
func committedAfter(rest []skills.Step) bool {
	for _, st := range rest {
		if st.Action == events.ActionNavigate {
			return false
		}
		if st.Destructive {
			return true
		}
	}
	return false
}

// sentNothing reports whether no demonstration saw a step send anything:
// no request answered, no new page, no form reset; true when none
// observed it (an imported flow).
func sentNothing(effects []*events.Effect) bool {
	for _, e := range effects {
		if e.Status != 0 || e.URL != "" || e.FormReset {
			return false
		}
	}
	return true
}

// success sets a destructive step's assert: the person's answer, else what
// every demonstration showed after it (see derive), else a question. A
// recording whose channel saw no effect (a desktop app, an older
// extension) keeps the old guess, said in a note.
func (g *builder) success(i int, st *skills.Step) error {
	if a, ok := g.opts.Confirm[fmt.Sprintf("%s%d", successKey, i+1)]; ok {
		cs, err := skills.ParseSuccess(a)
		if err != nil {
			return fmt.Errorf("%w: success:%d: %v", ErrBadAnswer, i+1, err)
		}
		st.Assert = cs
		return nil
	}
	effects := g.effects(i)
	if effects == nil {
		st.Assert = skills.Conditions{{Kind: skills.CondURLChanged, Timeout: legacyWait}}
		if steps := g.skill.Steps; i+1 < len(steps) && steps[i+1].Action != events.ActionNavigate &&
			st.URL != "" && steps[i+1].URL != "" && steps[i+1].URL != st.URL {
			return nil // the recording showed the URL change
		}
		g.note("Step %d (%s) commits the form; nothing showed what success looks like, so its check (url_changed) is a guess: edit it, or answer success:%d=...",
			i+1, skills.DescribeStep(st), i+1)
		return nil
	}
	cs := g.derive(i, effects)
	if !proves(cs) {
		g.questions = append(g.questions, Question{Kind: AskSuccess, Parameter: fmt.Sprintf("%s%d", successKey, i+1), Step: i + 1, Label: st.Label,
			Text: fmt.Sprintf("The recordings show nothing in common after step %d (%s), so success cannot be taken from them. What shows it worked? Answer success:%d=text:<text that appears>, url_changed, url_contains:<part>, element:<css>, form_reset or request_ok (several joined by ;).",
				i+1, skills.DescribeStep(st), i+1)})
		st.Assert = cs
		return nil
	}
	st.Assert = cs
	g.note("Step %d (%s) succeeds when %s (taken from the recordings).", i+1, skills.DescribeStep(st), skills.Describe(cs))
	return nil
}

// effects returns what followed skill step i in each recording, nil when a
// recording observed nothing.
func (g *builder) effects(i int) []*events.Effect {
	if i >= len(g.cols) || g.cols[i] == nil {
		return nil
	}
	var out []*events.Effect
	for _, s := range g.cols[i] {
		if s == nil || s.Effect == nil {
			return nil
		}
		out = append(out, s.Effect)
	}
	return out
}

// derive is what every demonstration showed after step i: the URL changed
// (to a common part) or stayed; texts that appeared in all (and, read back,
// each parameter's value the page showed in all); the form reset; the
// request answered with success. The timeout is the slowest one's, with a
// margin.
func (g *builder) derive(i int, effects []*events.Effect) skills.Conditions {
	var cs skills.Conditions
	page := g.skill.Steps[i].URL
	changed, stayed := 0, 0
	var urls []string
	for _, e := range effects {
		if e.URLUnknown {
			continue // neither: no condition on the URL unless every one saw it
		}
		if e.URL != "" && e.URL != page {
			changed++
			urls = append(urls, e.URL)
		} else {
			stayed++
		}
	}
	switch {
	case changed == len(effects):
		cs = append(cs, skills.Condition{Kind: skills.CondURLChanged})
		if part := commonPath(urls, page); part != "" {
			cs = append(cs, skills.Condition{Kind: skills.CondURLContains, Value: skills.Literal(part)})
		}
	case stayed == len(effects):
		cs = append(cs, skills.Condition{Kind: skills.CondURLUnchanged})
	}
	for _, t := range commonTexts(effects) {
		cs = append(cs, skills.Condition{Kind: skills.CondText, Value: skills.Literal(t)})
	}
	for _, c := range g.shownValues(effects) {
		cs = append(cs, skills.Condition{Kind: skills.CondText, Value: skills.Placeholder(c.name)})
	}
	reset, ok := true, true
	slowest := 0
	for _, e := range effects {
		reset = reset && e.FormReset
		ok = ok && e.Status >= 200 && e.Status < 400
		slowest = max(slowest, e.Millis)
	}
	if reset {
		cs = append(cs, skills.Condition{Kind: skills.CondFormReset})
	}
	if ok {
		cs = append(cs, skills.Condition{Kind: skills.CondRequestOK})
	}
	wait := min(max(2*time.Duration(slowest)*time.Millisecond+successMargin, minSuccessWait), maxSuccessWait).Round(time.Second)
	for k := range cs {
		cs[k].Timeout = wait.String()
	}
	return cs
}

// proves reports whether the conditions show success rather than only
// its absence of failure: an unchanged URL alone proves nothing.
func proves(cs skills.Conditions) bool {
	for _, c := range cs {
		if c.Kind != skills.CondURLUnchanged {
			return true
		}
	}
	return false
}

// commonTexts are the texts that appeared after the step in every
// recording (compared loosely), in the first recording's order, at most two.
func commonTexts(effects []*events.Effect) []string {
	var out []string
	for _, t := range effects[0].Texts {
		t = strings.TrimSpace(t)
		if t == "" || len(out) == 2 {
			continue
		}
		all := true
		for _, e := range effects[1:] {
			all = all && containsLoose(e.Texts, t)
		}
		if all {
			out = append(out, t)
		}
	}
	return out
}

func containsLoose(texts []string, t string) bool {
	f := skills.Loose(t)
	for _, x := range texts {
		if skills.Loose(x) == f {
			return true
		}
	}
	return false
}

// shownValues are the parameters whose value, in every recording, the page
// showed after the step: replay reads each back there after the commit.
func (g *builder) shownValues(effects []*events.Effect) []*candidate {
	var out []*candidate
	for _, c := range g.cands {
		if c.constant || c.column == "" || len(c.values) != len(effects) || c.prefix != "" || c.suffix != "" {
			continue
		}
		shown := true
		for k, e := range effects {
			v := c.values[k]
			shown = shown && len([]rune(v)) >= minReadBack && !strings.ContainsAny(v, "\r\n") && anyContains(e.Texts, v)
		}
		if shown && !slicesContainsCand(out, c.name) {
			out = append(out, c)
		}
	}
	return out
}

func anyContains(texts []string, v string) bool {
	for _, t := range texts {
		if strings.Contains(t, v) {
			return true
		}
	}
	return false
}

func slicesContainsCand(cs []*candidate, name string) bool {
	for _, c := range cs {
		if c.name == name {
			return true
		}
	}
	return false
}

// commonPath is the path the new pages' URLs share, cut at a slash, when it
// says more than the form's own page does ("/customers/records/").
func commonPath(urls []string, page string) string {
	var paths []string
	for _, u := range urls {
		p, err := url.Parse(u)
		if err != nil {
			return ""
		}
		paths = append(paths, p.Path)
	}
	prefix := paths[0]
	for _, p := range paths[1:] {
		n := 0
		for n < len(prefix) && n < len(p) && prefix[n] == p[n] {
			n++
		}
		prefix = prefix[:n]
	}
	if !allSame(paths) {
		// Cut where the pages part: /records/17 and /records/18 share
		// /records/, not /records/1.
		if cut := strings.LastIndexByte(prefix, '/'); cut >= 0 {
			prefix = prefix[:cut+1]
		}
	}
	if pp, err := url.Parse(page); err == nil && (prefix == pp.Path || strings.HasPrefix(pp.Path, prefix)) {
		return "" // the form's own path: no news
	}
	if len(strings.Trim(prefix, "/")) == 0 {
		return ""
	}
	return prefix
}

// filesRow returns a step of the column that files its recording's row:
// a click on a commit button after which its page takes no more input.
// Dropped as a one-off, it would leave a skill that fills rows and files
// none, and a replay that reports them done.
func (g *builder) filesRow(c column) (k int, s *events.Step, ok bool) {
	for k, s := range c {
		if s == nil || s.Action != events.ActionClick {
			continue
		}
		if st := stepFrom(s); commitClick(g.skill.Steps, skills.ButtonText(&st)) && endsRecordedPage(g.recs[k].Steps, s) {
			return k, s, true
		}
	}
	return 0, nil, false
}

// endsRecordedPage reports whether no input follows step s of a recording
// before its page changes.
func endsRecordedPage(steps []events.Step, s *events.Step) bool {
	after := false
	for i := range steps {
		switch st := &steps[i]; {
		case st == s:
			after = true
		case !after:
		case st.Action == events.ActionNavigate:
			return true
		case st.Action == events.ActionFill, st.Action == events.ActionSelect, st.Action == events.ActionUpload:
			return false
		}
	}
	return after
}
