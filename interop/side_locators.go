package interop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// sideTarget reads a command's element: its target and every alternative
// the recorder kept in targets.
func sideTarget(c sideCommand, name string, refuse func(string, string, ...any) error) (*target, error) {
	t := &target{}
	if c.Target != "" {
		if err := sideLocator(t, c.Target); err != nil {
			return nil, refuse("target", "%v", err)
		}
	}
	for k, raw := range c.Targets {
		field := fmt.Sprintf("targets[%d]", k)
		var pair []string
		if err := json.Unmarshal(raw, &pair); err != nil || len(pair) != 2 {
			return nil, refuse(field, "must be a [locator, strategy] pair of strings")
		}
		if err := sideLocator(t, pair[0]); err != nil {
			return nil, refuse(field, "%v", err)
		}
		// The recorder writes a button's or link's whole text into this
		// XPath: it is the name the skill builder reads a submit by.
		if m := innerText.FindStringSubmatch(pair[0]); m != nil && pair[1] == "xpath:innerText" {
			role := "button"
			if m[1] == "a" {
				role = "link"
			}
			t.name(m[2], role)
		}
	}
	if len(t.selectors) == 0 {
		return nil, refuse("target", "%s needs the locator of an element", quoteShort(name))
	}
	return t, nil
}

// innerText is the XPath Selenium IDE's xpath:innerText strategy writes
// for a button or a link, with its text in one line.
var innerText = regexp.MustCompile(`^xpath=//(button|a)\[contains\(\.,'([^'\n]+)'\)\]$`)

// sideLocator files one Selenium IDE locator (id=, name=, css=, xpath=,
// linkText=, partialLinkText=, or an XPath starting with //) under
// reprise's strategies. Its errors name the locator's kind, never its
// argument.
func sideLocator(t *target, loc string) error {
	loc = strings.TrimSpace(loc)
	if loc == "" {
		return errors.New("is empty")
	}
	if sideVariable.MatchString(loc) {
		return errors.New("uses a Selenium IDE variable (${...}), which reprise does not keep: write the locator itself")
	}
	if strings.HasPrefix(loc, "//") {
		t.add(events.StrategyXPath, loc)
		return nil
	}
	kind, arg, ok := strings.Cut(loc, "=")
	if !ok {
		return errors.New("is not a locator Selenium IDE reads: one starts with id=, name=, css=, xpath=, linkText= or partialLinkText=")
	}
	if strings.TrimSpace(arg) == "" {
		return fmt.Errorf("a %s= locator names no element", quoteShort(kind))
	}
	switch kind {
	case "id":
		t.add(events.StrategyID, "#"+cssIdent(arg))
	case "name":
		t.add(events.StrategyName, arg)
	case "css":
		t.css(arg)
	case "xpath":
		t.add(events.StrategyXPath, arg)
	case "link", "linkText":
		t.name(arg, "link")
	case "partialLinkText":
		t.add(events.StrategyXPath, "//a[contains(normalize-space(.), "+xpathLiteral(strings.Join(strings.Fields(arg), " "))+")]")
	case "label":
		return errors.New("label= chooses an option of a list, in a select's value; it is not a locator")
	default:
		return fmt.Errorf("a %s= locator is not one reprise knows (id=, name=, css=, xpath=, linkText= or partialLinkText=)", quoteShort(kind))
	}
	return nil
}

// sideOption reads a select's option locator: label=Text or value=v, or
// bare text, which Selenium IDE takes for a label.
func sideOption(v string) (string, error) {
	kind, arg, ok := strings.Cut(v, "=")
	if !ok {
		kind, arg = "label", v
	}
	switch kind {
	case "label":
		arg = strings.TrimPrefix(arg, "mostly-equals:")
	case "value":
	case "id", "index":
		return "", fmt.Errorf("an option chosen by %s= has no reprise equivalent: a skill chooses by what a row holds; choose the option with label= (its text) or value= in Selenium IDE", kind)
	default:
		return "", errors.New("is not an option locator Selenium IDE reads (label= or value=)")
	}
	if strings.TrimSpace(arg) == "" {
		return "", errors.New("select needs an option: label=Text or value=v")
	}
	return arg, nil
}

// xpathLiteral quotes s as an XPath 1.0 string, which has no escapes: a
// string holding both quotes is a concat of pieces.
func xpathLiteral(s string) string {
	switch {
	case !strings.Contains(s, "'"):
		return "'" + s + "'"
	case !strings.Contains(s, `"`):
		return `"` + s + `"`
	}
	return "concat('" + strings.Join(strings.Split(s, "'"), `', "'", '`) + "')"
}

// keyLine is the line of key in the object data is, or 0 when it has none.
func keyLine(data []byte, key string) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return 0
		}
		if t == key {
			return lineAt(data, dec.InputOffset())
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return 0
		}
	}
	return 0
}

// SuccessAnswer is how a refusal names the answer that states a submit's
// success check when the skill is built; a front end may name its own way
// to give that answer instead.
const SuccessAnswer = "the answer success:N=text:..."

// sideUnsupported says why a Selenium IDE command has no reprise
// equivalent, and whether it is one Selenium IDE has at all.
func sideUnsupported(name string) (why string, known bool) {
	if why, ok := sideRefused[name]; ok {
		return why, true
	}
	switch {
	case strings.HasPrefix(name, "assert"), strings.HasPrefix(name, "verify"):
		return "reprise checks a submit's success itself; build the skill, then state the check with " + SuccessAnswer, true
	case strings.HasPrefix(name, "store"):
		return "reprise keeps no variables: a skill fills each value from the row's columns", true
	case strings.HasPrefix(name, "waitFor"):
		return "reprise waits only for the element each step acts on, and checks a submit's success by its text and address: remove it, or state the check with " + SuccessAnswer + " once the skill is built", true
	}
	return "", false
}

const (
	whyPointer = "reprise does not replay pointer moves or presses; if the move opens a menu, record the click on its item instead"
	whyScript  = "reprise runs no page script; wait for an element or check a submit's text instead"
	whyFlow    = "reprise replays one path through a form per row, with no branches or loops: record each path as a test of its own"
	whyPrompt  = "reprise types no answer into a prompt dialog: it accepts dialogs, and cancels one only where a reprise recording saw it cancelled"
	whyCancel  = "reprise cancels a dialog only where a reprise recording saw the person cancel it: record this form with reprise, or remove the command to accept the dialog"
)

// sideRefused are the Selenium IDE commands reprise refuses, with why and
// what to do instead; assert*, verify*, store* and waitFor* have one
// reason each, in sideUnsupported.
var sideRefused = map[string]string{
	"addSelection":                   "reprise chooses one option of a list: keep one select command instead",
	"removeSelection":                "reprise chooses one option of a list: keep one select command instead",
	"doubleClick":                    "reprise replays single clicks; remove it or record the action it stands for",
	"doubleClickAt":                  "reprise replays single clicks; remove it or record the action it stands for",
	"dragAndDropToObject":            "reprise does not replay drags; record the action with clicks and values instead",
	"mouseOver":                      whyPointer,
	"mouseOut":                       whyPointer,
	"mouseMove":                      whyPointer,
	"mouseMoveAt":                    whyPointer,
	"mouseDown":                      whyPointer,
	"mouseDownAt":                    whyPointer,
	"mouseUp":                        whyPointer,
	"mouseUpAt":                      whyPointer,
	"editContent":                    "reprise fills form fields, not editable page content",
	"runScript":                      whyScript,
	"executeScript":                  whyScript,
	"executeAsyncScript":             whyScript,
	"echo":                           "it writes to Selenium IDE's log: remove it",
	"debugger":                       "it stops Selenium IDE's playback for debugging: remove it",
	"setSpeed":                       "reprise waits on the page's events, not on time: remove it",
	"if":                             whyFlow,
	"else":                           whyFlow,
	"elseIf":                         whyFlow,
	"while":                          whyFlow,
	"do":                             whyFlow,
	"repeatIf":                       whyFlow,
	"times":                          whyFlow,
	"forEach":                        whyFlow,
	"end":                            whyFlow,
	"run":                            "it runs another test, and reprise imports each test as a demonstration of its own: put that test's commands in this one",
	"selectWindow":                   "reprise replays in one tab",
	"answerOnNextPrompt":             whyPrompt,
	"webdriverAnswerOnVisiblePrompt": whyPrompt,
	"chooseCancelOnNextConfirmation": whyCancel,
	"chooseCancelOnNextPrompt":       whyCancel,
	"webdriverChooseCancelOnVisibleConfirmation": whyCancel,
	"webdriverChooseCancelOnVisiblePrompt":       whyCancel,
	"chooseOkOnNextConfirmation":                 "reprise accepts a confirm dialog by itself: remove it",
	"webdriverChooseOkOnVisibleConfirmation":     "reprise accepts a confirm dialog by itself: remove it",
}
