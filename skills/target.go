package skills

import (
	"regexp"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/selector"
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
