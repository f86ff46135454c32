package skills

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/events"
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
		case st.Action == events.ActionSubmit && !inputAfter(steps[i+1:]):
		case st.Action == events.ActionClick && st.ReadBack == nil && commitLabel(buttonText(st)) && endsPage(steps[i+1:]) && !committedAfter(steps[i+1:]):
		default:
			continue
		}
		st.Destructive = true
		if err := g.success(i, st); err != nil {
			return err
		}
	}
	if !slices.ContainsFunc(steps, func(st Step) bool { return st.Destructive }) {
		g.note("No step of this skill files a row (no submit, no click on Save, OK, Create...): replay will report a row committed once its steps are done and their values read back, whether or not the app kept anything. If filing takes a click, make sure every demonstration shows it.")
	}
	return nil
}

// inputAfter reports whether a later step sets a field.
func inputAfter(rest []Step) bool {
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
func committedAfter(rest []Step) bool {
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

// success sets a destructive step's assert: the person's answer, else what
// every demonstration showed after it (see derive), else a question. A
// recording whose channel saw no effect (a desktop app, an older
// extension) keeps the old guess, said in a note.
func (g *builder) success(i int, st *Step) error {
	if a, ok := g.opts.Confirm[fmt.Sprintf("%s%d", successKey, i+1)]; ok {
		cs, err := ParseSuccess(a)
		if err != nil {
			return fmt.Errorf("%w: success:%d: %v", ErrBadAnswer, i+1, err)
		}
		st.Assert = cs
		return nil
	}
	effects := g.effects(i)
	if effects == nil {
		st.Assert = Conditions{{Kind: CondURLChanged, Timeout: legacyWait}}
		if steps := g.skill.Steps; i+1 < len(steps) && steps[i+1].Action != events.ActionNavigate &&
			st.URL != "" && steps[i+1].URL != "" && steps[i+1].URL != st.URL {
			return nil // the recording showed the URL change
		}
		g.note("Step %d (%s) commits the form; nothing showed what success looks like, so its check (url_changed) is a guess: edit it, or answer success:%d=...",
			i+1, describeSkillStep(st), i+1)
		return nil
	}
	cs := g.derive(i, effects)
	if !cs.proves() {
		g.questions = append(g.questions, Question{Kind: AskSuccess, Parameter: fmt.Sprintf("%s%d", successKey, i+1), Step: i + 1, Label: st.Label,
			Text: fmt.Sprintf("The recordings show nothing in common after step %d (%s), so success cannot be taken from them. What shows it worked? Answer success:%d=text:<text that appears>, url_changed, url_contains:<part>, element:<css>, form_reset or request_ok (several joined by ;).",
				i+1, describeSkillStep(st), i+1)})
		st.Assert = cs
		return nil
	}
	st.Assert = cs
	g.note("Step %d (%s) succeeds when %s (taken from the recordings).", i+1, describeSkillStep(st), Describe(cs))
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
func (g *builder) derive(i int, effects []*events.Effect) Conditions {
	var cs Conditions
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
		cs = append(cs, Condition{Kind: CondURLChanged})
		if part := commonPath(urls, page); part != "" {
			cs = append(cs, Condition{Kind: CondURLContains, Value: Literal(part)})
		}
	case stayed == len(effects):
		cs = append(cs, Condition{Kind: CondURLUnchanged})
	}
	for _, t := range commonTexts(effects) {
		cs = append(cs, Condition{Kind: CondText, Value: Literal(t)})
	}
	for _, c := range g.shownValues(effects) {
		cs = append(cs, Condition{Kind: CondText, Value: Placeholder(c.name)})
	}
	reset, ok := true, true
	slowest := 0
	for _, e := range effects {
		reset = reset && e.FormReset
		ok = ok && e.Status >= 200 && e.Status < 400
		slowest = max(slowest, e.Millis)
	}
	if reset {
		cs = append(cs, Condition{Kind: CondFormReset})
	}
	if ok {
		cs = append(cs, Condition{Kind: CondRequestOK})
	}
	wait := min(max(2*time.Duration(slowest)*time.Millisecond+successMargin, minSuccessWait), maxSuccessWait).Round(time.Second)
	for k := range cs {
		cs[k].Timeout = wait.String()
	}
	return cs
}

// proves reports whether the conditions show success rather than only
// its absence of failure: an unchanged URL alone proves nothing.
func (cs Conditions) proves() bool {
	for _, c := range cs {
		if c.Kind != CondURLUnchanged {
			return true
		}
	}
	return false
}

// commonTexts are the texts that appeared after the step in every
// recording (compared folded), in the first recording's order, at most two.
func commonTexts(effects []*events.Effect) []string {
	var out []string
	for _, t := range effects[0].Texts {
		t = strings.TrimSpace(t)
		if t == "" || len(out) == 2 {
			continue
		}
		all := true
		for _, e := range effects[1:] {
			all = all && containsFolded(e.Texts, t)
		}
		if all {
			out = append(out, t)
		}
	}
	return out
}

func containsFolded(texts []string, t string) bool {
	f := Fold(t)
	for _, x := range texts {
		if Fold(x) == f {
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

// ParseSuccess reads the person's success answer: conditions joined by
// ";", each url_changed, url_unchanged, form_reset, request_ok, or
// text:, url_contains: or element: with its value.
func ParseSuccess(s string) (Conditions, error) {
	var cs Conditions
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		kind, value, _ := strings.Cut(part, ":")
		kind, value = strings.TrimSpace(kind), strings.TrimSpace(value)
		c := Condition{Kind: kind, Value: Literal(value), Timeout: "10s"}
		switch {
		case valuelessKinds[kind] && value == "":
		case (kind == CondText || kind == CondURLContains || kind == CondElement) && value != "":
		default:
			return nil, fmt.Errorf("%s is not a condition (text:..., url_changed, url_unchanged, url_contains:..., element:..., form_reset, request_ok)", quoteShort(part))
		}
		cs = append(cs, c)
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("no condition given")
	}
	return cs, nil
}

// Describe says in words what the conditions check, for a person: "the
// text \"Customer created\" appears; the URL stays the same (within 12s)".
func Describe(cs Conditions) string {
	var parts []string
	for _, c := range cs {
		switch c.Kind {
		case CondURLChanged:
			parts = append(parts, "the URL changes")
		case CondURLUnchanged:
			parts = append(parts, "the URL stays the same")
		case CondURLContains:
			parts = append(parts, fmt.Sprintf("the URL contains %q", c.Value))
		case CondText:
			if names, _ := Placeholders(c.Value); len(names) == 1 && c.Value == Placeholder(names[0]) {
				parts = append(parts, fmt.Sprintf("the page shows the row's %s", names[0]))
			} else {
				parts = append(parts, fmt.Sprintf("the text %q appears", c.Value))
			}
		case CondElement:
			parts = append(parts, fmt.Sprintf("the element %q is on the page", c.Value))
		case CondFormReset:
			parts = append(parts, "the form is reset")
		case CondRequestOK:
			parts = append(parts, "the site answers the request with success")
		default:
			parts = append(parts, c.Kind)
		}
	}
	out := strings.Join(parts, "; ")
	if len(cs) > 0 && cs[0].Timeout != "" {
		out += " (within " + cs[0].Timeout + ")"
	}
	return out
}
