package interop

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/reprise-dev/reprise/events"
)

// sideCommand is one command of a Selenium IDE test, as the .side format
// writes it: the fields reprise uses.
type sideCommand struct {
	Command *string `json:"command"`
	Target  string  `json:"target"`
	// Targets are the recorder's alternatives to Target, each a
	// [locator, strategy name] pair.
	Targets     []json.RawMessage `json:"targets"`
	Value       string            `json:"value"`
	OpensWindow bool              `json:"opensWindow"`
}

// keyEnter is the value of the sendKeys that presses Enter.
const keyEnter = "${KEY_ENTER}"

// sideVariable is a use of a Selenium IDE variable, which a store command
// set while the test ran.
var sideVariable = regexp.MustCompile(`\$\{\w+\}`)

// importSide reads a Selenium IDE project: one flow per test.
func importSide(data []byte) ([]Flow, error) {
	var head struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(data, err, "")
	}
	tests, err := listAt(data, data, 0, "tests", "")
	if err != nil {
		return nil, err
	}
	if len(tests) == 0 {
		return nil, &Error{Line: keyLine(data, "tests"), Field: "tests", Problem: "holds no test: record one in Selenium IDE and save the project again"}
	}
	p := &sideProject{data: data, url: head.URL}
	flows := make([]Flow, 0, len(tests))
	for i, it := range tests {
		f, err := p.test(it, fmt.Sprintf("tests[%d]", i))
		if err != nil {
			return nil, err
		}
		flows = append(flows, *f)
	}
	return flows, nil
}

// sideProject is what a test needs of its project.
type sideProject struct {
	data []byte
	url  string // the project's base address, for relative opens
}

// test reads one test, at the JSON path at, into a flow.
func (p *sideProject) test(it element, at string) (*Flow, error) {
	var head struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(it.raw, &head); err != nil {
		e := jsonError(p.data, err, at)
		e.Line = it.line
		return nil, e
	}
	cmds, err := listAt(p.data, it.raw, it.off, "commands", at)
	if err != nil {
		return nil, err
	}
	// The last command that runs: comments and disabled commands after a
	// close leave it the last.
	last := -1
	for j, c := range cmds {
		var name struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(c.raw, &name) != nil || name.Command != "" && !strings.HasPrefix(name.Command, "//") {
			last = j
		}
	}
	b := newFlowBuilder(FormatSide, head.Name)
	for j, c := range cmds {
		if err := p.command(b, c, fmt.Sprintf("%s.commands[%d]", at, j), j == last); err != nil {
			return nil, err
		}
	}
	if len(b.flow.Steps) == 0 {
		return nil, &Error{Line: it.line, Field: at + ".commands", Problem: "no command reprise can replay: a test needs at least one open, type, select or click"}
	}
	f, err := b.done()
	if err != nil {
		return nil, &Error{Line: it.line, Field: at, Problem: err.Error()}
	}
	return f, nil
}

// command reads one command into b. last says it is the last command
// of its test that runs.
func (p *sideProject) command(b *flowBuilder, it element, at string, last bool) error {
	var c sideCommand
	if err := json.Unmarshal(it.raw, &c); err != nil {
		e := jsonError(p.data, err, at)
		e.Line = it.line
		return e
	}
	refuse := func(field, problem string, args ...any) error {
		return &Error{Line: it.line, Field: strings.TrimSuffix(at+"."+field, "."), Problem: fmt.Sprintf(problem, args...)}
	}
	if c.Command == nil {
		return refuse("command", "is missing")
	}
	name := *c.Command
	switch {
	case name == "" && c.Target == "" && c.Value == "":
		return nil // a comment of its own, or an empty row
	case name == "":
		return refuse("command", "is empty, yet the row has a target or value: name its command, or delete the row")
	case strings.HasPrefix(name, "//"):
		b.absorb("commands disabled in Selenium IDE (//): Selenium IDE skips them, and so does the import", it.line)
		return nil
	}
	elem := func() (*target, error) { return sideTarget(c, name, refuse) }
	value := func(v string) error {
		if sideVariable.MatchString(v) {
			return refuse("value", "uses a Selenium IDE variable (${...}), which reprise does not keep: write the value itself; a skill fills it from the row's columns")
		}
		return nil
	}
	switch name {
	case "open":
		u, err := p.open(c.Target, refuse)
		if err != nil {
			return err
		}
		b.navigate(u)
	case "click", "clickAt":
		if c.OpensWindow {
			return refuse("opensWindow", "a click that opens another tab or window has no reprise equivalent: reprise replays in one tab")
		}
		t, err := elem()
		if err != nil {
			return err
		}
		// Selenium IDE records no navigation, so a click stays a click:
		// the skill builder tells a submit by its button.
		b.click(t, "", it.line)
		if name == "clickAt" && c.Value != "" {
			b.absorb("clickAt: reprise clicks the element itself, not the point within it that the offset names", it.line)
		}
	case "check", "uncheck":
		t, err := elem()
		if err != nil {
			return err
		}
		b.click(t, strconv.FormatBool(name == "check"), it.line)
	case "type":
		t, err := elem()
		if err != nil {
			return err
		}
		if !t.looksSecret() {
			if err := value(c.Value); err != nil {
				return err
			}
		}
		b.fill(t, c.Value, it.line)
	case "select":
		t, err := elem()
		if err != nil {
			return err
		}
		if err := value(c.Value); err != nil {
			return err
		}
		opt, err := sideOption(c.Value)
		if err != nil {
			return refuse("value", "%v", err)
		}
		b.choose(t, opt, it.line)
	case "sendKeys":
		if c.Value != keyEnter {
			return refuse("value", "sendKeys other than %s after a type has no reprise equivalent: put text in a type command, and for a key that presses a button record the click on the button", keyEnter)
		}
		t, err := elem()
		if err != nil {
			return err
		}
		prev := b.last()
		if prev == nil || prev.Action != events.ActionFill || prev.Enrichment == nil {
			return refuse("value", "%s that does not follow a type has no reprise equivalent: record the click on the button it presses", keyEnter)
		}
		// Enter in the field just typed in submits that field's form.
		if sharesSelector(t, prev.Enrichment.Selectors) {
			t = &target{selectors: prev.Enrichment.Selectors, role: prev.Enrichment.Role, label: prev.Enrichment.Label}
		}
		b.submit(t)
	case "submit":
		t, err := elem()
		if err != nil {
			return err
		}
		b.submit(t)
	case "setWindowSize":
		size := c.Target
		if size == "" {
			size = c.Value
		}
		w, h, ok := windowSize(size)
		if !ok {
			return refuse("target", "setWindowSize needs a size such as 1280x800")
		}
		b.absorb(fmt.Sprintf("setWindowSize: a skill sets its page's size once, with browser: {viewport: {width: %d, height: %d}} (the page's size; Selenium's is the whole window's, a little larger); add it to the skill to keep this size", w, h), it.line)
	case "waitForElementPresent", "waitForElementVisible":
		if _, err := elem(); err != nil {
			return err
		}
		b.absorb("waitForElementPresent and waitForElementVisible: reprise waits for each step's element by itself (up to 10 s), so these waits need no step", it.line)
	case "assertText", "verifyText", "assertTitle", "verifyTitle":
		// Right after the click that sends the form, a text the test
		// checks is what success looked like: the submit's effect, as a
		// Recorder flow's asserted navigation is.
		text := c.Value
		if strings.HasSuffix(name, "Title") {
			text = c.Target
		}
		prev := b.last()
		if prev == nil || prev.Action != events.ActionClick && prev.Action != events.ActionSubmit || prev.Value != nil || strings.TrimSpace(text) == "" {
			return refuse("command", "%s has no reprise equivalent here: only a text checked right after the click that sends the form is kept, as its success check", quoteShort(name))
		}
		if prev.Effect == nil {
			// Selenium IDE saw the text, not where the page went.
			prev.Effect = &events.Effect{URLUnknown: true}
		}
		if len(prev.Effect.Texts) < 16 {
			prev.Effect.Texts = append(prev.Effect.Texts, cut(strings.TrimSpace(text), 500))
		}
		b.absorb(name+": the text checked after the click that sends the form is its success check", it.line)
	case "pause":
		b.absorb("pause: reprise waits on the page's events, not on time", it.line)
	case "selectFrame":
		b.absorb("selectFrame: reprise looks into same-origin frames by itself", it.line)
	case "close":
		if !last {
			return refuse("command", "close before the test's last command has no reprise equivalent: reprise replays in one tab")
		}
		b.absorb("close: reprise closes the browser after the last row", it.line)
	default:
		why, known := sideUnsupported(name)
		if !known {
			return refuse("command", "%s is not a Selenium IDE command reprise knows: remove it, or record the step again in Selenium IDE", quoteShort(name))
		}
		return refuse("command", "%s has no reprise equivalent: %s", quoteShort(name), why)
	}
	return nil
}

// open is where an open command goes: its target, joined to the
// project's url when relative, as Selenium IDE does.
func (p *sideProject) open(target string, refuse func(string, string, ...any) error) (string, error) {
	if sideVariable.MatchString(target) {
		return "", refuse("target", "uses a Selenium IDE variable (${...}), which reprise does not keep: write the address itself")
	}
	u, err := url.Parse(strings.TrimSpace(target))
	if err != nil {
		return "", refuse("target", "is not a web address")
	}
	if u.IsAbs() {
		if strings.EqualFold(u.Scheme, "javascript") {
			return "", refuse("target", "a javascript: address runs page script, which reprise does not: open the page itself")
		}
		return u.String(), nil
	}
	if p.url == "" {
		if target == "" {
			return "", refuse("target", "open needs an address")
		}
		return "", refuse("target", "is a relative address and the project has no url: set the project's base URL in Selenium IDE, or write the whole address here")
	}
	base, err := url.Parse(p.url)
	if err != nil || !base.IsAbs() || base.Host == "" {
		return "", &Error{Line: keyLine(p.data, "url"), Field: "url", Problem: "must be a whole web address, such as https://example.com, for the relative addresses of open"}
	}
	return base.ResolveReference(u).String(), nil
}

// windowSize reads Selenium IDE's "1280x800".
func windowSize(s string) (w, h int, ok bool) {
	ws, hs, found := strings.Cut(strings.TrimSpace(s), "x")
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	return w, h, found && errW == nil && errH == nil && w > 0 && h > 0
}

// sharesSelector says t finds the element one of sels does.
func sharesSelector(t *target, sels []events.Selector) bool {
	return slices.ContainsFunc(t.selectors, func(s events.Selector) bool { return slices.Contains(sels, s) })
}

// cut shortens s to at most n bytes, on a rune boundary.
func cut(s string, n int) string {
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
