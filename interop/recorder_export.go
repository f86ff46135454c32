package interop

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// recorderFlow is a user flow as Chrome's Recorder saves it.
type recorderFlow struct {
	Title string `json:"title"`
	// Timeout is each step's wait in milliseconds. The Recorder's own
	// default is 5 s, which a busy machine's page load can outlast, and
	// the replay then fails a row reprise would have filed.
	Timeout int64 `json:"timeout,omitempty"`
	Steps   []any `json:"steps"`
}

// flowTimeout is the longest wait a Recorder flow may set (30 s): a flow
// run unattended is better slow on a busy machine than failed.
const flowTimeout = 30_000

// outStep is one exported Recorder step; fields empty for a type are left
// out. Kept in the Recorder's own key order, so a flow reads as its own.
type outStep struct {
	Type              string            `json:"type"`
	Width             int               `json:"width,omitempty"`
	Height            int               `json:"height,omitempty"`
	DeviceScaleFactor int               `json:"deviceScaleFactor,omitempty"`
	IsMobile          *bool             `json:"isMobile,omitempty"`
	HasTouch          *bool             `json:"hasTouch,omitempty"`
	IsLandscape       *bool             `json:"isLandscape,omitempty"`
	URL               string            `json:"url,omitempty"`
	Selectors         [][]string        `json:"selectors,omitempty"`
	Value             *string           `json:"value,omitempty"`
	Key               string            `json:"key,omitempty"`
	OffsetX           *int              `json:"offsetX,omitempty"`
	OffsetY           *int              `json:"offsetY,omitempty"`
	AssertedEvents    []assertedEvent   `json:"assertedEvents,omitempty"`
	Expression        string            `json:"expression,omitempty"`
	Attributes        map[string]string `json:"attributes,omitempty"`
	Timeout           int64             `json:"timeout,omitempty"`
}

// exported is a skill's Recorder flow with what the scripts built on it
// need to know per step.
type exported struct {
	flow recorderFlow
	// toggles maps a step index to the state (a template) its box must
	// end in: the script clicks only when the box is not in it.
	toggles map[int]string
	// choices maps a step index to its list's option labels and values:
	// the Recorder sets a select by its option's value.
	choices map[int]map[string]string
	// ifs maps a step index to the boolean placeholder (%ticked%) that
	// says whether a row runs it: a field a box shows.
	ifs map[int]string
	// success maps a destructive step's index to the checks that say its
	// row was filed: the script waits for them before the next row.
	success map[int]skills.Conditions
	// unmapped names the steps that set a <select> whose options the
	// skill does not know (an imported one): the Recorder sets a select
	// by its option's value.
	unmapped []string
	notes    []string
}

// ChromeRecorder writes s as a Chrome DevTools Recorder user flow with
// one row's values filled in (values by parameter, as rows.Row.Fill gives
// them). The notes say what the flow does not do that the skill does.
func ChromeRecorder(s *skills.Skill, values map[string]string) ([]byte, []string, error) {
	fill := func(v string) (string, error) { return skills.Expand(v, values) }
	ex, err := exportFlow(s, fill)
	if err != nil {
		return nil, nil, err
	}
	if len(ex.unmapped) > 0 {
		return nil, nil, fmt.Errorf("%s sets a list whose option values the skill does not know (an imported skill keeps none), and a Recorder flow sets a list by its option's value: export it as %s or %s, which find the option in the page", ex.unmapped[0], ExportPuppeteerReplay, ExportPlaywright)
	}
	// A box is clicked when the row wants it checked: a fresh form's box
	// is unchecked. A list gets its option's value. The step filing the
	// row is followed by waits for what proves it filed.
	var steps []any
	for i, st := range ex.flow.Steps {
		if want, ok := ex.toggles[i]; ok && want != "true" {
			continue
		}
		if tmpl, ok := ex.ifs[i]; ok {
			if runs, err := fill(tmpl); err != nil || runs != "true" {
				continue // a field the row's box leaves hidden
			}
		}
		if m, ok := ex.choices[i]; ok {
			o := st.(outStep)
			if v, ok := m[*o.Value]; ok {
				o.Value = &v
				st = o
			}
		}
		steps = append(steps, st)
		if cs, ok := ex.success[i]; ok {
			waits, err := successWaits(cs, fill)
			if err != nil {
				return nil, nil, err
			}
			steps = append(steps, waits...)
		}
	}
	ex.flow.Steps = steps
	notes := ex.notes
	if len(ex.toggles) > 0 {
		notes = append(notes, "A checkbox is clicked when the row wants it checked, as on a fresh form: the Recorder cannot click only when a box is not already in the state the row wants.")
	}
	b, err := json.MarshalIndent(ex.flow, "", "  ")
	return append(b, '\n'), notes, err
}

// exportFlow turns the skill's steps into Recorder steps, each value
// passed through fill.
func exportFlow(s *skills.Skill, fill func(string) (string, error)) (*exported, error) {
	ex := &exported{flow: recorderFlow{Title: s.Name, Timeout: flowTimeout}, toggles: map[int]string{}, choices: map[int]map[string]string{}, ifs: map[int]string{}, success: map[int]skills.Conditions{}}
	f, t := false, true
	w, h := 1280, 800
	if s.Browser != nil && s.Browser.Viewport != nil {
		w, h = s.Browser.Viewport.Width, s.Browser.Viewport.Height
	}
	runIf := ""
	add := func(o outStep) {
		if runIf != "" {
			ex.ifs[len(ex.flow.Steps)] = runIf
		}
		ex.flow.Steps = append(ex.flow.Steps, o)
	}
	add(outStep{Type: "setViewport", Width: w, Height: h, DeviceScaleFactor: 1, IsMobile: &f, HasTouch: &f, IsLandscape: &t})
	for i, st := range s.Steps {
		runIf = st.If
		ref := fmt.Sprintf("step %d (%s)", i+1, st.Action)
		value, err := fill(st.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref, err)
		}
		sels := recorderSelectors(st)
		needTarget := func() error {
			if len(sels) == 0 {
				return fmt.Errorf("%s: no selector the Recorder can use (its element is found by reprise's selector model only)", ref)
			}
			return nil
		}
		switch st.Action {
		case events.ActionNavigate:
			url, err := fill(cmp.Or(st.Value, st.URL))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", ref, err)
			}
			add(outStep{Type: "navigate", URL: url, AssertedEvents: []assertedEvent{{Type: "navigation", URL: url}}})
		case events.ActionFill:
			if err := needTarget(); err != nil {
				return nil, err
			}
			if segmented(st) {
				return nil, fmt.Errorf("%s: %w", ref, errSegments)
			}
			if st.Secret {
				ex.notes = append(ex.notes, fmt.Sprintf("%s is a password field: its value is not exported; type it into the flow yourself.", ref))
				value = ""
			}
			add(outStep{Type: "change", Selectors: sels, Value: &value})
		case events.ActionSelect:
			if err := needTarget(); err != nil {
				return nil, err
			}
			if st.Multiple {
				return nil, fmt.Errorf("%s: %w", ref, errItems)
			}
			if native(st) {
				m := map[string]string{}
				for _, o := range st.Options {
					m[o.Label] = cmp.Or(o.Value, o.Label)
				}
				if len(m) > 0 {
					ex.choices[len(ex.flow.Steps)] = m
				} else {
					ex.unmapped = append(ex.unmapped, ref)
				}
				add(outStep{Type: "change", Selectors: sels, Value: &value})
				continue
			}
			// A radio group or a custom list: the option is clicked.
			// By role too: a radio's name may also be a field's label
			// (E-mail), and the runner races the two.
			option := [][]string{{"aria/" + value}}
			if role := optionRoles[strings.ToLower(st.Role)]; role != "" {
				option = [][]string{{fmt.Sprintf(`aria/%s[role="%s"]`, value, role)}}
			}
			listbox := strings.EqualFold(st.Role, "listbox")
			if listbox && !st.Multiple {
				// The list takes the focus first, as a person's first
				// click gives it: a list that selects its first option on
				// focus, and scrolls to it, does so before the option's
				// click, not under it.
				add(outStep{Type: "click", Selectors: sels, OffsetX: ptr(clickAt), OffsetY: ptr(clickAt)})
			}
			add(outStep{Type: "click", Selectors: option, OffsetX: ptr(clickAt), OffsetY: ptr(clickAt)})
			if listbox {
				// Read back: the flow stops here, before the row is filed
				// with another option.
				add(outStep{Type: "waitForElement", Selectors: option, Attributes: map[string]string{"aria-selected": "true"}})
			}
		case events.ActionClick, events.ActionSubmit:
			if err := needTarget(); err != nil {
				return nil, err
			}
			if st.Action == events.ActionClick && st.Value != "" {
				ex.toggles[len(ex.flow.Steps)] = value
			}
			o := outStep{Type: "click", Selectors: sels, OffsetX: ptr(clickAt), OffsetY: ptr(clickAt)}
			if st.Action == events.ActionSubmit && textField(st) {
				o = outStep{Type: "keyDown", Key: "Enter"}
				add(outStep{Type: "click", Selectors: sels, OffsetX: ptr(clickAt), OffsetY: ptr(clickAt)})
				add(o)
				o = outStep{Type: "keyUp", Key: "Enter"}
			}
			if st.Destructive && navigates(st.Assert) {
				o.AssertedEvents = []assertedEvent{{Type: "navigation"}}
			}
			if st.Destructive && len(st.Assert) > 0 {
				ex.success[len(ex.flow.Steps)] = st.Assert
			}
			add(o)
		case skills.ActionAsk:
			return nil, fmt.Errorf("%s asks a person, which a Recorder flow cannot: a row filed without the answer would be filed wrong", ref)
		case events.ActionUpload:
			return nil, fmt.Errorf("%s uploads a file, and a Recorder flow has no upload step: a row filed without it would be filed wrong", ref)
		default:
			return nil, fmt.Errorf("%s has no Recorder flow equivalent", ref)
		}
	}
	return ex, nil
}

// recorderSelectors writes a step's selectors as the Recorder does, each
// alternative once: aria/ for names, CSS (and pierce/ for CSS inside
// shadow roots), and xpath/ only when there is nothing else. The runner
// races a step's selectors and acts on the first to match: an element's
// place in the page (which a recorded XPath is) may by then be another
// element's.
func recorderSelectors(st skills.Step) [][]string {
	var out [][]string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, []string{s})
		}
	}
	var css, xpaths []string
	named := map[string]bool{} // accessible names already given
	for _, sel := range st.Selectors {
		switch sel.Strategy {
		case events.StrategyID:
			css = append(css, "#"+cssIdent(strings.TrimPrefix(sel.Value, "#")))
		case events.StrategyName:
			if strings.HasPrefix(sel.Value, "[") {
				css = append(css, sel.Value)
			} else {
				css = append(css, `[name="`+cssString(sel.Value)+`"]`)
			}
		case events.StrategyLabel:
			add("aria/" + sel.Value)
			named[sel.Value] = true
		case events.StrategyRoleText:
			if role, name, ok := parseRoleText(sel.Value); ok {
				add(fmt.Sprintf(`aria/%s[role="%s"]`, name, role))
				named[name] = true
			}
		case events.StrategyCSS:
			css = append(css, sel.Value)
		case events.StrategyXPath:
			xpaths = append(xpaths, "xpath/"+sel.Value)
		}
	}
	if t := st.Target; t != nil && t.Name != "" && !strings.Contains(t.Name, "*") && !named[t.Name] {
		add("aria/" + t.Name)
	}
	for _, c := range css {
		add(c)
	}
	for _, c := range css {
		add("pierce/" + c)
	}
	if len(out) == 0 {
		for _, x := range xpaths {
			add(x)
		}
	}
	return out
}

var roleTextRE = regexp.MustCompile(`^([\w-]+)\[name=(['"])(.*)['"]\]$`)

// parseRoleText reads role[name='Name'].
func parseRoleText(v string) (role, name string, ok bool) {
	m := roleTextRE.FindStringSubmatch(v)
	if m == nil {
		return "", "", false
	}
	return m[1], strings.NewReplacer(`\'`, `'`, `\"`, `"`, `\\`, `\`).Replace(m[3]), true
}

// clickAt is where a flow's click lands in its element, from its top left
// corner: a flow cannot say "the middle", and a click at 1, 1 misses an
// element with rounded corners (a switch: Chromium hit-tests the rounded
// shape, and the click lands on what is behind it). 8 px is inside any
// control of a usable size, rounded or not.
const clickAt = 8

// optionRoles are the roles of a custom list's options, by the list's.
var optionRoles = map[string]string{"radiogroup": "radio", "radio": "radio", "listbox": "option"}

// native says a select step is on a list the Recorder sets by its value:
// not a radio group, nor a menu or listbox that opens on a click.
func native(st skills.Step) bool {
	switch strings.ToLower(st.Role) {
	case "radiogroup", "radio", "listbox", "menu":
		return false
	}
	return true
}

// textField says a submit was an Enter pressed in a field.
func textField(st skills.Step) bool {
	switch strings.ToLower(st.Role) {
	case "textbox", "searchbox", "combobox":
		return true
	}
	return false
}

// navigates says a step's success is a new page.
func navigates(cs skills.Conditions) bool {
	for _, c := range cs {
		if c.Kind == skills.CondURLChanged || c.Kind == skills.CondURLContains {
			return true
		}
	}
	return false
}

// cssIdent escapes an id for a CSS selector.
func cssIdent(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_', r == '-' && i > 0, r >= 0x80:
			b.WriteRune(r)
		case r >= '0' && r <= '9' && i > 0:
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, `\%x `, r)
		}
	}
	return b.String()
}

// cssString escapes s for a double-quoted CSS string.
func cssString(s string) string { return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) }

func ptr[T any](v T) *T { return &v }

// successWaits are the Recorder steps that wait for a filing step's
// success: a text or an element appearing (an address is the navigation
// the step already asserts). A filing step none of whose checks a flow can
// wait for is refused: replayed, the flow would close the page before the
// site answered, and say nothing.
func successWaits(cs skills.Conditions, fill func(string) (string, error)) ([]any, error) {
	var out []any
	expressed := false
	for _, c := range cs {
		timeout := timeoutMillis(c)
		switch c.Kind {
		case skills.CondURLContains, skills.CondURLChanged:
			expressed = true
		case skills.CondText:
			text, err := fill(c.Value)
			if err != nil {
				return nil, err
			}
			// A wait on an expression outlives the page the step leaves,
			// where a wait on an element fails as that page goes.
			out = append(out, outStep{Type: "waitForExpression", Expression: textExpression(text), Timeout: timeout})
			expressed = true
		case skills.CondElement:
			out = append(out, outStep{Type: "waitForElement", Selectors: [][]string{{c.Value}}, Timeout: timeout})
			expressed = true
		}
	}
	if !expressed {
		return nil, fmt.Errorf("the step that files a row proves it by %s, which a Recorder flow cannot wait for: export it as %s or %s", condition(cs[0]), ExportPuppeteerReplay, ExportPlaywright)
	}
	return out, nil
}

// textExpression is the page expression a Recorder flow waits on for text
// to show: the one form the Recorder import reads back as a text check.
func textExpression(text string) string {
	return "document.body !== null && document.body.innerText.includes(" + jsString(text) + ")"
}
