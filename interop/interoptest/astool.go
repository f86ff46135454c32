package interoptest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// The import round trips start from reprise's own Recorder export of a
// demonstrated row and rewrite it the way the tools themselves record the
// same actions, which say less than reprise's export does: names without
// roles, no read-backs, selects as option values (the Recorder) or labels
// (Selenium IDE), a box as a bare click.

// flowStep is a Recorder step, kept whole: the rewrite changes a few
// fields and passes the rest through.
type flowStep map[string]any

type flow struct {
	Title string     `json:"title"`
	Steps []flowStep `json:"steps"`
}

// withRole splits a name written with its role, Name[role="button"].
var withRole = regexp.MustCompile(`^(.*?)\[role="([^"]*)"\]$`)

// single is a selector alternative that is one selector, not a path
// across shadow roots.
func single(alt any) (string, bool) {
	parts, ok := alt.([]any)
	if !ok || len(parts) != 1 {
		return "", false
	}
	s, ok := parts[0].(string)
	return s, ok
}

// AsRecorder rewrites an exported flow as Chrome's Recorder panel writes
// one: each field clicked before its value changes, names without their
// roles where no other element of the flow has the name (the Recorder
// gives the role only when the name alone is not unique), and none of the
// waits reprise's export adds after a step to read it back or to see the
// row filed. title names the flow.
func AsRecorder(exported []byte, title string) ([]byte, error) {
	var f flow
	if err := json.Unmarshal(exported, &f); err != nil {
		return nil, fmt.Errorf("read the exported flow: %w", err)
	}
	// A name two elements of the flow share keeps its role, as the
	// Recorder writes it when the name alone is not unique.
	roles := map[string]map[string]bool{}
	for _, st := range f.Steps {
		sels, _ := st["selectors"].([]any)
		for _, alt := range sels {
			s, _ := single(alt)
			if m := withRole.FindStringSubmatch(s); m != nil && strings.HasPrefix(s, "aria/") {
				if roles[m[1]] == nil {
					roles[m[1]] = map[string]bool{}
				}
				roles[m[1]][m[2]] = true
			}
		}
	}
	out := flow{Title: title}
	for _, st := range f.Steps {
		if sels, ok := st["selectors"].([]any); ok {
			st["selectors"] = withoutRoles(sels, roles)
		}
		switch st["type"] {
		case "waitForElement", "waitForExpression":
			continue
		case "change":
			click := flowStep{"type": "click", "target": "main", "selectors": st["selectors"], "offsetX": 8, "offsetY": 8}
			out.Steps = append(out.Steps, click)
		}
		out.Steps = append(out.Steps, st)
	}
	return json.MarshalIndent(out, "", "  ")
}

func withoutRoles(sels []any, roles map[string]map[string]bool) []any {
	var out []any
	seen := map[string]bool{}
	for _, alt := range sels {
		s, ok := single(alt)
		if !ok {
			out = append(out, alt)
			continue
		}
		if m := withRole.FindStringSubmatch(s); m != nil && strings.HasPrefix(s, "aria/") && len(roles[m[1]]) == 1 {
			s = m[1]
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, []any{s})
		}
	}
	return out
}

type sideCommand struct {
	ID      string     `json:"id"`
	Comment string     `json:"comment"`
	Command string     `json:"command"`
	Target  string     `json:"target"`
	Targets [][]string `json:"targets"`
	Value   string     `json:"value"`
}

type sideTest struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Commands []sideCommand `json:"commands"`
}

// AsSide writes exported flows (one per test) as a Selenium IDE project
// on base records them: open by path, a click on each field before it is
// typed into, a list's option chosen by its label (labels maps the option
// values the flows set to their labels), a box as a click, a button also
// by its text and a radio by its value (Selenium IDE's XPaths by text and
// by attributes). An element found by its name alone, with no role to
// write such an XPath for, is refused.
func AsSide(base, name string, exported [][]byte, labels map[string]string) ([]byte, error) {
	project := struct {
		ID      string     `json:"id"`
		Version string     `json:"version"`
		Name    string     `json:"name"`
		URL     string     `json:"url"`
		Tests   []sideTest `json:"tests"`
		Suites  []any      `json:"suites"`
		URLs    []string   `json:"urls"`
		Plugins []any      `json:"plugins"`
	}{ID: "zoo-" + name, Version: "2.0", Name: name, URL: base, URLs: []string{base + "/"}, Suites: []any{}, Plugins: []any{}}
	for i, b := range exported {
		var f flow
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("flow %d: read the exported flow: %w", i+1, err)
		}
		test := sideTest{ID: fmt.Sprintf("test-%d", i+1), Name: fmt.Sprintf("%s %d", name, i+1)}
		add := func(command, target string, targets [][]string, value string) {
			test.Commands = append(test.Commands, sideCommand{ID: fmt.Sprintf("cmd-%d-%d", i+1, len(test.Commands)+1),
				Command: command, Target: target, Targets: targets, Value: value})
		}
		values := map[string]string{} // option labels to values
		for v, l := range labels {
			values[l] = v
		}
		last := ""
		var lastTargets [][]string
		for j, st := range f.Steps {
			where := fmt.Sprintf("flow %d step %d (%s)", i+1, j+1, st["type"])
			switch st["type"] {
			case "setViewport":
				add("setWindowSize", fmt.Sprintf("%vx%v", st["width"], st["height"]), [][]string{}, "")
			case "navigate":
				u, _ := st["url"].(string)
				add("open", relative(base, u), [][]string{}, "")
			case "click", "change":
				if st["type"] == "click" && onList(st["selectors"]) {
					continue // reprise's export focuses a list first; a person clicks the option
				}
				target, targets, err := sideLocators(st["selectors"], values)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", where, err)
				}
				last, lastTargets = target, targets
				if st["type"] == "click" {
					add("click", target, targets, "")
					continue
				}
				v, _ := st["value"].(string)
				if label, ok := labels[v]; ok {
					add("select", target, targets, "label="+label)
					continue
				}
				add("click", target, targets, "")
				add("type", target, targets, v)
			case "keyDown":
				if st["key"] == "Enter" && last != "" {
					add("sendKeys", last, lastTargets, "${KEY_ENTER}")
				}
			case "keyUp", "waitForElement", "waitForExpression":
			default:
				return nil, fmt.Errorf("%s: no Selenium IDE command records it", where)
			}
		}
		project.Tests = append(project.Tests, test)
	}
	return json.MarshalIndent(project, "", "  ")
}

// relative is u as a path on base, as Selenium IDE writes an open.
func relative(base, u string) string {
	b, err1 := url.Parse(base)
	p, err2 := url.Parse(u)
	if err1 != nil || err2 != nil || b.Host != p.Host {
		return u
	}
	return p.RequestURI()
}

var (
	cssID   = regexp.MustCompile(`^#([\w-]+)$`)
	cssName = regexp.MustCompile(`^\[name="([^"]+)"\]$`)
)

// sideLocators turns a Recorder step's selectors into Selenium IDE's
// target and its alternatives, in the order Selenium IDE lists them: id,
// name, CSS, XPath by attributes, XPath by text. values maps option labels
// to their values, for a radio button's XPath by its value.
func sideLocators(v any, values map[string]string) (string, [][]string, error) {
	sels, _ := v.([]any)
	var ids, others, byAttr [][]string
	var names []string
	for _, alt := range sels {
		s, ok := single(alt)
		if !ok {
			continue // a selector across shadow roots
		}
		switch {
		case strings.HasPrefix(s, "aria/"):
			names = append(names, strings.TrimPrefix(s, "aria/"))
		case strings.HasPrefix(s, "pierce/"), strings.HasPrefix(s, "text/"):
		case strings.HasPrefix(s, "xpath/"):
			byAttr = append(byAttr, []string{"xpath=" + strings.TrimPrefix(s, "xpath/"), "xpath:attributes"})
		case cssID.MatchString(s):
			ids = append(ids, []string{"id=" + cssID.FindStringSubmatch(s)[1], "id"})
			others = append(others, []string{"css=" + s, "css:finder"})
		case cssName.MatchString(s):
			ids = append(ids, []string{"name=" + cssName.FindStringSubmatch(s)[1], "name"})
		default:
			others = append(others, []string{"css=" + s, "css:finder"})
		}
	}
	targets := append(append(append(ids, others...), byAttr...), byText(names, values)...)
	if len(targets) == 0 {
		return "", nil, fmt.Errorf("found by its accessible name alone (%q), which Selenium IDE does not record", strings.Join(names, ", "))
	}
	return targets[0][0], targets, nil
}

// byText is what Selenium IDE adds for an element by its text and
// attributes: a button by its text (xpath:innerText, which it lists for
// every button); a radio button by its value, and a radio or box by the
// label a person clicks or by its own text for an ARIA one; an option by
// its text; a link by its text.
func byText(names []string, values map[string]string) [][]string {
	innerText := func(xpath string) []string { return []string{"xpath=" + xpath, "xpath:innerText"} }
	for _, n := range names {
		m := withRole.FindStringSubmatch(n)
		if m == nil || strings.Contains(m[1], "'") {
			continue
		}
		text, role := m[1], m[2]
		switch role {
		case "button":
			return [][]string{innerText(fmt.Sprintf("//button[contains(.,'%s')]", text))}
		case "radio", "checkbox", "switch":
			var out [][]string
			if v, ok := values[text]; ok && v != text && !strings.Contains(v, "'") {
				out = append(out, []string{fmt.Sprintf("xpath=//input[@value='%s']", v), "xpath:attributes"})
			}
			return append(out, innerText(fmt.Sprintf("//label[contains(.,'%s')]", text)),
				innerText(fmt.Sprintf("//*[@role='%s'][contains(.,'%s')]", role, text)))
		case "option":
			return [][]string{innerText(fmt.Sprintf("//*[@role='option'][contains(.,'%s')]", text))}
		case "link":
			return [][]string{{"linkText=" + text, "linkText"}}
		}
	}
	return nil
}

// onList reports whether selectors name a list box itself.
func onList(v any) bool {
	sels, _ := v.([]any)
	for _, alt := range sels {
		if s, _ := single(alt); strings.HasPrefix(s, "aria/") && strings.HasSuffix(s, `[role="listbox"]`) {
			return true
		}
	}
	return false
}
