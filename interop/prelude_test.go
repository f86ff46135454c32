package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/skills/cells"
)

// TestPreludeMapsCellsAsReprise runs the exported scripts' prelude under
// node on cells of every kind and compares each value with what reprise's
// own replay fills (cells.Map), and each refused cell with a refusal: an
// export must not file a date the CSV writes 15.03.2027 as that text.
func TestPreludeMapsCellsAsReprise(t *testing.T) {
	node := needNode(t, "@playwright/test")
	s := &skills.Skill{Version: skills.CurrentVersion, Name: "cells",
		Parameters: []skills.Parameter{
			{Name: "arrive", Column: "arrive", Type: events.ValueDate, Written: "DD.MM.YYYY"},
			{Name: "depart", Column: "depart", Type: events.ValueDate, Written: "MMMM D, YYYY", Format: "MM/DD/YYYY"},
			{Name: "born", Column: "born", Type: events.ValueDate, Written: "D/M/YY", Optional: true},
			{Name: "since", Column: "since", Type: events.ValueDate, Format: "DD.MM.YYYY"},
			{Name: "plan", Column: "plan", Type: events.ValueEnum, Options: map[string]string{"gold": "Pro"}},
			{Name: "news", Column: "news", Type: skills.TypeBoolean},
		},
		Steps: []skills.Step{
			{Action: events.ActionSelect, Label: "Plan", Value: "%plan%", Options: []skills.Option{{Label: "Basic", Value: "basic"}, {Label: "Pro", Value: "pro"}}},
		}}
	cellsOf := map[string][]string{
		"arrive": {"15.03.2027", "5.3.2027", "1.1.2000", "31.02.2027", "2027-03-15", "15/03/2027", ""},
		"depart": {"March 5, 2027", "march 15, 2027", "MARCH 5, 2027", "Mar 5, 2027", "March 32, 2027"},
		"born":   {"5/3/90", "15/12/68", "1/1/69", "", "5/3/1990"},
		"since":  {"2027-03-15", "2027-03-15T10:30", "15.03.2027", ""},
		"plan":   {"Pro", "pro", "GOLD", "basic", "Enterprise", ""},
		"news":   {"yes", "N", "", "maybe"},
	}
	type probe struct{ Param, Cell string }
	var probes []probe
	for _, p := range s.Parameters {
		for _, c := range cellsOf[p.Name] {
			probes = append(probes, probe{p.Name, c})
		}
	}
	in, _ := json.Marshal(probes)
	script := parametersJS(s) + prelude + `
const byName = Object.fromEntries(PARAMETERS.map((p) => [p.name, p]));
const out = JSON.parse(process.argv[2]).map(({ Param, Cell }) => {
  try { return { value: mapCell(byName[Param], Cell) }; } catch (e) { return { refused: e.message }; }
});
console.log(JSON.stringify(out));
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cells.js"), []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Value   *string
		Refused string
	}
	if out := node.Run(t, dir, "cells.js", string(in)); json.Unmarshal([]byte(out), &got) != nil || len(got) != len(probes) {
		t.Fatalf("the prelude printed %q", out)
	}
	params := map[string]skills.Parameter{}
	for _, p := range s.Parameters {
		params[p.Name] = p
	}
	for i, pr := range probes {
		want, err := cells.Map(params[pr.Param], pr.Cell, s.OptionsOf(pr.Param))
		switch g := got[i]; {
		case err != nil && g.Value != nil:
			t.Errorf("%s %q: the prelude fills %q; reprise refuses it (%v)", pr.Param, pr.Cell, *g.Value, err)
		case err == nil && g.Value == nil:
			t.Errorf("%s %q: the prelude refuses it (%s); reprise fills %q", pr.Param, pr.Cell, g.Refused, want)
		case err == nil && *g.Value != want:
			t.Errorf("%s %q: the prelude fills %q; reprise fills %q", pr.Param, pr.Cell, *g.Value, want)
		}
	}
}
