package interop

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// rank orders selectors as reprise does, most stable first.
var rank = map[string]int{
	events.StrategyID: 0, events.StrategyName: 1, events.StrategyLabel: 2,
	events.StrategyRoleText: 3, events.StrategyCSS: 4, events.StrategyXPath: 5,
}

// target is what an imported step says about its element.
type target struct {
	selectors []events.Selector
	role      string // from an aria selector's [role=...], else ""
	label     string // an accessible name, from an aria or text selector
}

var (
	simpleID   = regexp.MustCompile(`^#(-?[A-Za-z_][\w-]*)$`)
	simpleName = regexp.MustCompile(`^(?:[a-z]+)?\[name=(?:"([^"\\]+)"|'([^'\\]+)'|([\w-]+))\]$`)
	ariaRole   = regexp.MustCompile(`^(.*?)\[role="([\w-]+)"\]$`)
)

// add appends one selector, keeping the first of equal ones.
func (t *target) add(strategy, value string) {
	value = strings.TrimSpace(value)
	if value == "" {
		return
	}
	s := events.Selector{Strategy: strategy, Value: value}
	if !slices.Contains(t.selectors, s) {
		t.selectors = append(t.selectors, s)
	}
}

// css files a CSS selector under the most stable strategy it is: #id is
// an id, [name=x] a name, anything else css.
func (t *target) css(sel string) {
	sel = strings.TrimSpace(sel)
	if m := simpleID.FindStringSubmatch(sel); m != nil {
		t.add(events.StrategyID, "#"+m[1])
		return
	}
	if m := simpleName.FindStringSubmatch(sel); m != nil {
		t.add(events.StrategyName, m[1]+m[2]+m[3])
		return
	}
	t.add(events.StrategyCSS, sel)
}

// name files an accessible name: with a role it is role+text, else a label.
func (t *target) name(name, role string) {
	name = strings.TrimSpace(name)
	if name == "" {
		return
	}
	if t.label == "" {
		t.label = name
	}
	if role != "" {
		if t.role == "" {
			t.role = role
		}
		t.add(events.StrategyRoleText, roleText(role, name))
		return
	}
	t.add(events.StrategyLabel, name)
}

// roleText writes role[name='Name'] as the recorder does.
func roleText(role, name string) string {
	return role + "[name='" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(name) + "']"
}

// sorted returns the selectors in reprise's order of stability.
func (t *target) sorted() []events.Selector {
	out := slices.Clone(t.selectors)
	slices.SortStableFunc(out, func(a, b events.Selector) int { return cmp.Compare(rank[a.Strategy], rank[b.Strategy]) })
	return out
}

// looksSecret says a field is a password by what its selectors name.
func (t *target) looksSecret() bool {
	for _, s := range t.selectors {
		v := strings.ToLower(s.Value)
		if strings.Contains(v, "password") || strings.Contains(v, "passwd") || strings.Contains(v, `type="password"`) {
			return true
		}
	}
	return strings.Contains(strings.ToLower(t.label), "password")
}

// enrichment is the step's element as the trajectory schema holds it.
func (t *target) enrichment(url string) *events.Enrichment {
	return &events.Enrichment{Kind: events.KindDOM, Selectors: t.sorted(), Role: t.role, Label: t.label, URL: url}
}
