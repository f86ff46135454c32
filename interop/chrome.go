package interop

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// recorderStep is one step of a Chrome DevTools Recorder user flow, the
// schema @puppeteer/replay reads (Schema.ts): the fields reprise uses.
type recorderStep struct {
	Type           string          `json:"type"`
	Target         string          `json:"target,omitempty"`
	Frame          []int           `json:"frame,omitempty"`
	Selectors      []rawSelector   `json:"selectors,omitempty"`
	Value          *string         `json:"value,omitempty"`
	URL            string          `json:"url,omitempty"`
	Key            string          `json:"key,omitempty"`
	Button         string          `json:"button,omitempty"`
	Visible        *bool           `json:"visible,omitempty"`
	Count          *int            `json:"count,omitempty"`
	Operator       string          `json:"operator,omitempty"`
	Attributes     json.RawMessage `json:"attributes,omitempty"`
	Properties     json.RawMessage `json:"properties,omitempty"`
	Width          int             `json:"width,omitempty"`
	Height         int             `json:"height,omitempty"`
	AssertedEvents []assertedEvent `json:"assertedEvents,omitempty"`
	Expression     string          `json:"expression,omitempty"`
}

// rawSelector is a selector, or the parts of one that cross shadow roots
// (["my-app", "#email"]: #email inside my-app's shadow root).
type rawSelector []string

func (r *rawSelector) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*r = rawSelector{one}
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		return fmt.Errorf("a selector is a string or a list of strings")
	}
	*r = parts
	return nil
}

type assertedEvent struct {
	Type  string `json:"type"`
	URL   string `json:"url,omitempty"`
	Title string `json:"title,omitempty"`
}

// importChrome reads a Recorder user flow into one flow.
func importChrome(data []byte) (*Flow, error) {
	var head struct {
		Title string `json:"title"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(data, err, "")
	}
	items, err := listAt(data, data, 0, "steps", "")
	if err != nil {
		return nil, err
	}
	b := newFlowBuilder(FormatChromeRecorder, head.Title)
	var downKey string
	for i, it := range items {
		at := fmt.Sprintf("steps[%d]", i)
		var st recorderStep
		if err := json.Unmarshal(it.raw, &st); err != nil {
			e := jsonError(data, err, at)
			e.Line = max(e.Line, it.line)
			if strings.Contains(err.Error(), "a selector is") {
				e.Field, e.Problem = at+".selectors", "each selector is a string or a list of strings"
			}
			return nil, e
		}
		refuse := func(field, problem string, args ...any) error {
			return &Error{Line: it.line, Field: strings.TrimSuffix(at+"."+field, "."), Problem: fmt.Sprintf(problem, args...)}
		}
		if st.Target != "" && st.Target != "main" {
			return nil, refuse("target", "a step in another tab or window (%s) has no reprise equivalent: reprise replays in one tab", quoteShort(st.Target))
		}
		switch st.Type {
		case "setViewport":
			if st.Width <= 0 || st.Height <= 0 {
				return nil, refuse("width", "setViewport needs a width and a height above 0")
			}
			b.absorb(fmt.Sprintf("setViewport: a skill sets its page's size once, with browser: {viewport: {width: %d, height: %d}}; add it to the skill to keep this size", st.Width, st.Height), it.line)
		case "navigate":
			if st.URL == "" {
				return nil, refuse("url", "navigate needs a url")
			}
			b.navigate(st.URL)
		case "change":
			t, err := recorderTarget(st, refuse)
			if err != nil {
				return nil, err
			}
			if st.Value == nil {
				return nil, refuse("value", "change needs a value")
			}
			if t.role == "combobox" || t.role == "listbox" {
				b.choose(t, *st.Value, it.line)
			} else {
				b.fill(t, *st.Value, it.line)
			}
		case "click":
			if st.Button != "" && st.Button != "primary" {
				return nil, refuse("button", "a %s-button click has no reprise equivalent: reprise clicks with the primary button", quoteShort(st.Button))
			}
			t, err := recorderTarget(st, refuse)
			if err != nil {
				return nil, err
			}
			// A click that moves on from a page where values were entered
			// is the form's submit, and where it led is how success looks.
			if nav := navigation(st.AssertedEvents); nav != nil && b.entered {
				b.navigated(b.submit(t), nav.URL)
			} else {
				b.click(t, "", it.line)
				if nav != nil {
					b.url = nav.URL
				}
			}
		case "keyDown":
			if st.Key == "" {
				return nil, refuse("key", "keyDown needs a key")
			}
			if err := b.key(st.Key, it.line, refuse); err != nil {
				return nil, err
			}
			downKey = st.Key
		case "keyUp":
			if st.Key == "" {
				return nil, refuse("key", "keyUp needs a key")
			}
			if st.Key != downKey {
				return nil, refuse("key", "keyUp %s follows no keyDown of it", quoteShort(st.Key))
			}
			downKey = ""
			if nav := navigation(st.AssertedEvents); nav != nil {
				if s := b.last(); s != nil && s.Action == "submit" {
					b.navigated(s, nav.URL)
				}
			}
		case "waitForElement":
			if st.Visible != nil && !*st.Visible || st.Count != nil || st.Operator != "" || len(st.Attributes) > 0 || len(st.Properties) > 0 {
				return nil, refuse("", "waitForElement with a count, an operator, attributes, properties or visible: false has no reprise equivalent: reprise waits for the element each step acts on, and checks a submit's success by text and address")
			}
			if _, err := recorderTarget(st, refuse); err != nil {
				return nil, err
			}
			b.absorb("waitForElement: reprise waits for each step's element by itself (up to 10 s), so these waits need no step", it.line)
		case "scroll":
			b.absorb("scroll: reprise scrolls each element into view before it acts", it.line)
		case "close":
			if i != len(items)-1 {
				return nil, refuse("type", "close before the flow's last step has no reprise equivalent: reprise replays in one tab")
			}
			b.absorb("close: reprise closes the browser after the last row", it.line)
		case "waitForExpression":
			// The one expression reprise's own export writes after the
			// step that files a row: the text that proves it filed.
			text, ok := expressionText(st.Expression)
			prev := b.last()
			if !ok || prev == nil || prev.Action != events.ActionSubmit && prev.Action != events.ActionClick {
				return nil, refuse("type", "%s has no reprise equivalent: %s", st.Type, unsupported[st.Type])
			}
			if prev.Effect == nil {
				prev.Effect = &events.Effect{URLUnknown: true}
			}
			if len(prev.Effect.Texts) < 16 {
				prev.Effect.Texts = append(prev.Effect.Texts, cut(text, 500))
			}
			b.absorb("waitForExpression: the text waited for after the click that sends the form is its success check", it.line)
		case "hover", "doubleClick", "customStep", "emulateNetworkConditions":
			return nil, refuse("type", "%s has no reprise equivalent: %s", st.Type, unsupported[st.Type])
		case "":
			return nil, refuse("type", "is missing")
		default:
			return nil, refuse("type", "%s is not a Chrome Recorder step type", quoteShort(st.Type))
		}
	}
	if downKey != "" {
		return nil, &Error{Line: items[len(items)-1].line, Field: "steps", Problem: fmt.Sprintf("keyDown %s is never released", quoteShort(downKey))}
	}
	return b.done()
}

var unsupported = map[string]string{
	"hover":                    "reprise does not replay pointer moves; if the hover opens a menu, record the click on its item instead",
	"doubleClick":              "reprise replays single clicks; remove it or record the action it stands for",
	"waitForExpression":        "reprise runs no page script; wait for an element or check a submit's text instead",
	"customStep":               "it needs the tool's own extension",
	"emulateNetworkConditions": "reprise replays on the network as it is",
}

// key handles a keyDown: Enter after a value submits the field's form;
// Tab only moves the focus; other keys are refused.
func (b *flowBuilder) key(key string, line int, refuse func(string, string, ...any) error) error {
	switch key {
	case "Tab", "Shift":
		b.absorb("Tab presses: reprise finds each field by its selectors, so moving the focus needs no step", line)
		return nil
	case "Enter":
		last := b.last()
		if last == nil || last.Action != "fill" || last.Enrichment == nil {
			return refuse("key", "Enter that does not follow a change has no reprise equivalent: record the click on the button it presses")
		}
		b.submit(&target{selectors: last.Enrichment.Selectors, role: last.Enrichment.Role, label: last.Enrichment.Label})
		return nil
	}
	return refuse("key", "a %s key press has no reprise equivalent: reprise replays values, choices, clicks and submits, not keys", quoteShort(key))
}

// recorderTarget reads a step's selectors.
func recorderTarget(st recorderStep, refuse func(string, string, ...any) error) (*target, error) {
	if len(st.Selectors) == 0 {
		return nil, refuse("selectors", "%s needs at least one selector", st.Type)
	}
	t := &target{}
	for k, sel := range st.Selectors {
		if len(sel) == 0 {
			return nil, refuse(fmt.Sprintf("selectors[%d]", k), "is empty")
		}
		// The parts cross shadow roots; reprise looks through open shadow
		// roots and same-origin frames itself, so the last part finds it.
		last := strings.TrimSpace(sel[len(sel)-1])
		if last == "" {
			return nil, refuse(fmt.Sprintf("selectors[%d]", k), "is empty")
		}
		if err := recorderSelector(t, last); err != nil {
			return nil, refuse(fmt.Sprintf("selectors[%d]", k), "%v", err)
		}
	}
	if len(t.selectors) == 0 {
		return nil, refuse("selectors", "none of the selectors is one reprise can use")
	}
	return t, nil
}

// recorderSelector files one Recorder selector: aria/Name[role="x"],
// text/..., xpath/..., pierce/<css>, or plain CSS.
func recorderSelector(t *target, s string) error {
	prefix, rest, ok := strings.Cut(s, "/")
	if !ok || strings.ContainsAny(prefix, " .#[>:*") {
		t.css(s)
		return nil
	}
	switch prefix {
	case "aria":
		if m := ariaRole.FindStringSubmatch(rest); m != nil {
			t.name(m[1], m[2])
		} else {
			t.name(rest, "")
		}
	case "text":
		t.name(rest, "")
	case "xpath":
		t.add("xpath", rest)
	case "pierce":
		t.css(rest)
	default:
		return fmt.Errorf("a %s/ selector is not one reprise knows (aria/, text/, xpath/, pierce/ or CSS)", quoteShort(prefix))
	}
	return nil
}

// navigation is a step's asserted navigation, if it has one.
func navigation(evs []assertedEvent) *assertedEvent {
	for i := range evs {
		if evs[i].Type == "navigation" {
			return &evs[i]
		}
	}
	return nil
}

// quoteShort quotes a name from the file, cut to 40 bytes: a step type or
// key, never a field's value.
func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// expressionText reads back the text of a wait textExpression wrote.
func expressionText(expr string) (string, bool) {
	const prefix, suffix = "document.body !== null && document.body.innerText.includes(", ")"
	quoted, ok := strings.CutPrefix(expr, prefix)
	if !ok || !strings.HasSuffix(quoted, suffix) {
		return "", false
	}
	var text string
	if err := json.Unmarshal([]byte(strings.TrimSuffix(quoted, suffix)), &text); err != nil || strings.TrimSpace(text) == "" {
		return "", false
	}
	return strings.TrimSpace(text), true
}
