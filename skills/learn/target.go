package learn

import (
	"regexp"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// aPlaceholder finds text a skill would read as a placeholder.
var aPlaceholder = regexp.MustCompile(`%[A-Za-z0-9_]+%`)

// targetOf is the selector a built step names its element by: the role
// and accessible name the demonstrations captured, and the element's id
// only when it was the same in each of them (an id a page makes per load
// is no id); in its container when the recorder saw the name repeat. A step with neither a name nor a stable id gets none, and
// replay finds it by its recorded strategies alone.
func targetOf(c column) *selector.Selector {
	rep := c.rep()
	e := rep.Enrichment
	if e == nil || e.Role == "" {
		return nil
	}
	t := &selector.Selector{Role: selector.RoleOf(e.Role), Name: labelOf(rep), ID: idOf(e)}
	for _, s := range c {
		if s != nil && (s.Enrichment == nil || idOf(s.Enrichment) != t.ID) {
			t.ID = ""
		}
	}
	if aPlaceholder.MatchString(t.Name) {
		t.Name = "" // a label that reads like a placeholder would be filled from the row
	}
	if t.Name == "" && t.ID == "" {
		return nil
	}
	if c := e.Container; c != nil && t.ID == "" && c.Name != "" && !aPlaceholder.MatchString(c.Name) {
		// The name repeats on the page: the container tells them apart.
		t.In = &selector.Selector{Role: selector.RoleOf(c.Role), Name: c.Name}
	}
	return t
}

// idOf is the element's own id as its application gives it: the DOM id
// strategy holds it as a CSS selector ("#first_name"), whose escapes a
// selector's id, compared as written, does not speak.
func idOf(e *events.Enrichment) string {
	v := strategyValue(e, events.StrategyID)
	id, ok := strings.CutPrefix(v, "#")
	if !ok || id == "" || strings.ContainsAny(id, `\ []:.>+~*,"'`) {
		return ""
	}
	return id
}

// pathContainers maps the container roles the desktop trees write on an
// accessibility path (AT-SPI, UIA, MSAA and AX names) onto the selector
// role their listings give a named one.
var pathContainers = map[string]string{
	"panel": "group", "filler": "group", "grouping": "group", "form": "group", "tool bar": "group",
	"page tab": "tab", "list": "list", "list box": "list", "table": "list", "tree": "list", "tree table": "list",
	"Group": "group", "TabItem": "tab", "List": "list", "DataGrid": "list", "Table": "list", "Tree": "list",
	"client": "group", "pane": "group",
	"AXGroup": "group", "AXRadioGroup": "group", "AXList": "list", "AXTable": "list", "AXOutline": "list",
}

// inRepeated gives the targets that two steps of the skill share (two
// fields named Name on a desktop form, which no recorder marked as a
// repeat) the nearest named container on their recorded accessibility
// paths, so each names its own.
func inRepeated(steps []skills.Step) {
	key := func(t *selector.Selector) string { return t.Role + "\x00" + selector.NormalizeLabel(t.Name) }
	shared := map[string]int{}
	for _, st := range steps {
		if t := st.Target; t != nil && t.In == nil && t.ID == "" {
			shared[key(t)]++
		}
	}
	for i := range steps {
		st := &steps[i]
		if t := st.Target; t == nil || t.In != nil || t.ID != "" || shared[key(t)] < 2 || st.AXPath == nil {
			continue
		}
		if in := containerOnPath(*st.AXPath); in != nil {
			t := *st.Target
			t.In = in
			st.Target = &t
		}
	}
}

// containerOnPath is the nearest named container above the element a path
// leads to, below its window.
func containerOnPath(path string) *selector.Selector {
	nodes := axpath.Parse(path)
	for i := len(nodes) - 2; i >= 1; i-- {
		if role := pathContainers[nodes[i].Role]; role != "" && nodes[i].Name != "" && !aPlaceholder.MatchString(nodes[i].Name) {
			return &selector.Selector{Role: role, Name: nodes[i].Name}
		}
	}
	return nil
}
