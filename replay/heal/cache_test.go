package heal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

func TestCacheFitsOnlyTheValuesItAssumes(t *testing.T) {
	dir, key := t.TempDir(), testKey(t)
	c, err := OpenCache(dir, "s", key)
	if err != nil {
		t.Fatal(err)
	}
	st := skills.Step{Action: "fill", Label: "Email", Value: "%email%"}
	ch := Change{Step: 1, Target: selector.Selector{Role: "text_field", Name: "E-mail for %company%"}}
	// The model was shown email, company and plan: email is typed and
	// company finds the element, plan was only seen.
	if err := c.Store(ch, st, []string{"email", "company", "plan"}, map[string]string{"email": "a@x.org", "company": "Acme", "plan": "Gold"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "s.json"))
	for _, v := range []string{"a@x.org", "Acme", "Gold"} {
		if strings.Contains(string(data), v) {
			t.Fatalf("the cache file holds the value %q:\n%s", v, data)
		}
	}
	if fi, _ := os.Stat(filepath.Join(dir, "s.json")); fi.Mode().Perm() != 0o600 {
		t.Errorf("cache mode %v; want 0600", fi.Mode().Perm())
	}
	c2, err := OpenCache(dir, "s", key) // as the next run reads it
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		values map[string]string
		fits   bool
	}{
		{map[string]string{"email": "b@x.org", "company": "Other", "plan": "Gold"}, true},
		{map[string]string{"email": "b@x.org", "company": "Other", "plan": "Silver"}, false},
		{map[string]string{"email": "b@x.org"}, false},
	} {
		if _, ok := c2.Lookup(1, st, tc.values); ok != tc.fits {
			t.Errorf("Lookup(%v) fits %v; want %v", tc.values, ok, tc.fits)
		}
	}
	// Another step as written, or another step index, has no entry.
	if _, ok := c2.Lookup(1, skills.Step{Action: "fill", Label: "E-mail", Value: "%email%"}, map[string]string{"plan": "Gold"}); ok {
		t.Error("an entry fit a step written differently")
	}
	if n, err := c2.Clear(0); n != 0 || err != nil {
		t.Errorf("Clear(step 1) = %d, %v; want none removed", n, err)
	}
	if n, err := c2.Clear(-1); n != 1 || err != nil {
		t.Errorf("Clear(all) = %d, %v; want 1", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "s.json")); !os.IsNotExist(err) {
		t.Errorf("an empty cache left its file: %v", err)
	}
}

func TestCacheFiles(t *testing.T) {
	dir, key := t.TempDir(), testKey(t)
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, "s.json"), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"version": 99, "skill": "s", "entries": [{"step": 1}]}`)
	c, err := OpenCache(dir, "s", key)
	if err != nil || !c.Ignored || len(c.Entries()) != 0 {
		t.Errorf("another version: %v, ignored %v, %d entries; want it set aside", err, c != nil && c.Ignored, len(c.Entries()))
	}
	write(`{"version": 2, "skill": "s", "entries": [`)
	var damaged *DamagedError
	if _, err := OpenCache(dir, "s", key); !errors.As(err, &damaged) || damaged.Skill != "s" || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a damaged file: %v; want a *DamagedError naming skill s", err)
	}
	write(`{"version": 2, "skill": "other", "entries": []}`)
	if _, err := OpenCache(dir, "s", key); err == nil || !strings.Contains(err.Error(), "belongs to") {
		t.Errorf("another skill's file: %v", err)
	}
	if err := RemoveCache(dir, "s"); err != nil {
		t.Fatal(err)
	}
	if err := RemoveCache(dir, "s"); err != nil {
		t.Errorf("removing no cache: %v", err)
	}
}

func TestPinAndKeep(t *testing.T) {
	tree := selector.Tree{
		el("group", "Billing", -1), el("text_field", "Email", 0),
		el("group", "Shipping", -1), el("text_field", "Email", 2),
		el("button", "", -1),
		el("button", "Save 10% now", -1),
		el("link", "Ada Lovelace", -1),
	}
	tree[4].ID = "go"
	for _, tc := range []struct {
		i    int
		want string
	}{
		{3, `role: "text_field", name: "Email", in: {role: "group", name: "Shipping"}`},
		{4, `role: "button", id: "go"`},
		{5, `role: "button", name: "Save 10% now"`},
	} {
		s, err := pin(tree, tc.i)
		if err != nil || !strings.Contains(s.String(), tc.want) {
			t.Errorf("pin(%d) = %s, %v; want %s", tc.i, s, err, tc.want)
		}
	}
	tree = append(tree, el("button", "", -1))
	if _, err := pin(tree, len(tree)-1); err == nil {
		t.Error("pin(an element with no name or id) succeeded")
	}
	m := newMasker(map[string]string{"name": "Ada Lovelace", "x": "a"})
	linked := selector.Selector{Role: "link", Name: "Ada Lovelace", ID: "cust-17"}
	if got, ok := keep(linked, m); !ok || got.Name != "%name%" || got.ID != "" {
		t.Errorf("keep(a value's link) = %+v, %v; want the placeholder and no id", got, ok)
	}
	if got, _ := keep(selector.Selector{Role: "button", Name: "Save 10% now"}, m); got.Name != "Save 10* now" {
		t.Errorf("keep(a literal percent) = %q; want a wildcard", got.Name)
	}
	if got, _ := keep(selector.Selector{Role: "button", Name: "a"}, m); got.Name != "a" {
		t.Errorf("a one-letter value replaced a name: %q", got.Name)
	}
}

func TestRevise(t *testing.T) {
	sk, err := skills.Parse([]byte(skillYAML))
	if err != nil {
		t.Fatal(err)
	}
	accept := selector.Selector{Role: "button", Name: "Accept all"}
	changes := []Change{
		{Step: 2, Target: selector.Selector{Role: "button", Name: "Send"}},
		{Step: 1, Before: []selector.Selector{accept}, Target: selector.Selector{Role: "text_field", Name: "E-mail address"}},
		{Step: 2, Target: selector.Selector{Role: "button", Name: "Later"}}, // the first change of a step wins
	}
	got, err := Revise(sk, changes)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Steps) != len(sk.Steps)+1 {
		t.Fatalf("%d steps; want one inserted", len(got.Steps))
	}
	if ins := got.Steps[1]; ins.Action != "click" || ins.Target.Name != "Accept all" || ins.When == nil || ins.When.Element.Name != "Accept all" {
		t.Errorf("inserted %+v; want a click on Accept all, when it is there", ins)
	}
	if got.Steps[2].Target.Name != "E-mail address" || len(got.Steps[2].Selectors) != 1 || got.Steps[3].Target.Name != "Send" {
		t.Errorf("targets %v, %v; want the healed ones, recorded selectors kept", got.Steps[2].Target, got.Steps[3].Target)
	}
	if sk.Steps[1].Target != nil {
		t.Error("Revise changed the skill it was given")
	}
	doc, err := skills.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := skills.Parse(doc); err != nil {
		t.Fatalf("the revision does not read back: %v\n%s", err, doc)
	}
	if _, err := Revise(sk, []Change{{Step: 9}}); err == nil {
		t.Error("a change for a step the skill does not have was written in")
	}
}
