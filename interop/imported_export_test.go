package interop

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/interop/interoptest"
	"github.com/reprise-dev/reprise/skills"
)

// importedSkill is the export round trips' skill as an import leaves it
// (issue 35): its list carries no options (a Recorder flow names none,
// and the site's values are not its labels), and the save is proven by a
// text on the next page, not by its address, so nothing waits for a
// navigation.
func importedSkill(t *testing.T, base string) *skills.Skill {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "export", "customer.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.ReplaceAll(string(b), "{{base}}", base)
	for old, new := range map[string]string{
		"    options:\n      - {label: Choose one, value: \"\"}\n      - {label: Basic, value: basic}\n      - {label: Professional, value: pro}\n      - {label: Enterprise, value: ent}\n": "",
		"assert: {kind: url_contains, value: /customers/, timeout: 10s}": "assert: {kind: text, value: Customer created, timeout: 10s}",
	} {
		if !strings.Contains(doc, old) {
			t.Fatalf("testdata/export/customer.yaml no longer holds %q", old)
		}
		doc = strings.Replace(doc, old, new, 1)
	}
	s, err := skills.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestExportsOfAnImportedSkillFileTheRows runs the @puppeteer/replay and
// Playwright exports of importedSkill with the real tools: every row
// stored once with the plan the CSV names by label (the site stores its
// value), none lost to a page closed before its request landed.
func TestExportsOfAnImportedSkillFileTheRows(t *testing.T) {
	for _, asFill := range []bool{false, true} {
		name := "a select step"
		if asFill {
			name = "the list imported as a fill"
		}
		t.Run(name, func(t *testing.T) { exportsFileTheRows(t, asFill) })
	}
}

// exportsFileTheRows runs both exports of importedSkill; asFill makes its
// list step a fill of a field found by CSS alone, as a Recorder change or
// a Selenium type on a <select> is imported.
func exportsFileTheRows(t *testing.T, asFill bool) {
	skill := func(base string) *skills.Skill {
		s := importedSkill(t, base)
		if asFill {
			st := &s.Steps[3]
			st.Action, st.Role, st.Label, st.ReadBack = "fill", "", "", nil
			st.Selectors = st.Selectors[:1] // #plan
		}
		return s
	}
	t.Run("puppeteer-replay", func(t *testing.T) {
		tools := needNode(t, "@puppeteer/replay")
		site := newFormSite(t)
		script, err := PuppeteerReplay(skill(site.URL), ExportOptions{CSV: "customers.csv"})
		if err != nil {
			t.Fatal(err)
		}
		out := tools.Run(t, exportDir(t, map[string][]byte{"replay.js": script}), "replay.js")
		if diff := rowsEqual(site.Filed(), exportRows); diff != "" {
			t.Fatalf("after the export ran:\n%s\nits output:\n%s", diff, out)
		}
	})
	t.Run("playwright", func(t *testing.T) {
		tools := needNode(t, "@playwright/test")
		site := newFormSite(t)
		spec, err := Playwright(skill(site.URL), ExportOptions{CSV: "customers.csv"})
		if err != nil {
			t.Fatal(err)
		}
		out, err := tools.PlaywrightTest(t, exportDir(t, map[string][]byte{"new-customer.spec.js": spec}))
		if err != nil {
			t.Fatalf("playwright test: %v\n%s", err, out)
		}
		if diff := rowsEqual(site.Filed(), exportRows); diff != "" {
			t.Fatalf("after the spec ran:\n%s\nits output:\n%s", diff, out)
		}
	})
}

// TestExportsGoOnAfterAFailedRow: a row the site cannot take (its plan
// is no option of the list) is reported failed, the rows after it are
// filed, and the run exits non-zero.
func TestExportsGoOnAfterAFailedRow(t *testing.T) {
	const csv = "First Name,Email,Plan,Newsletter,Note\nAda,ada@example.test,Platinum,yes,\nGrace,grace@example.test,gold,no,\n"
	// run writes what export makes of the skill for a site, and runs it.
	run := func(t *testing.T, module string, export func(*skills.Skill) map[string][]byte, args ...string) string {
		t.Helper()
		tools := needNode(t, module)
		site := newFormSite(t)
		dir := exportDir(t, export(importedSkill(t, site.URL)))
		if err := os.WriteFile(filepath.Join(dir, "customers.csv"), []byte(csv), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := tools.RunErr(t, dir, args...)
		if err == nil {
			t.Errorf("the run exited 0 with a failed row:\n%s", out)
		}
		if got := site.Filed(); len(got) != 1 || got[0]["email"] != "grace@example.test" || got[0]["plan"] != "ent" {
			t.Errorf("the site holds %v; want Grace alone, on the enterprise plan\n%s", got, out)
		}
		return out
	}
	t.Run("puppeteer-replay", func(t *testing.T) {
		out := run(t, "@puppeteer/replay", func(s *skills.Skill) map[string][]byte {
			script, err := PuppeteerReplay(s, ExportOptions{CSV: "customers.csv"})
			if err != nil {
				t.Fatal(err)
			}
			return map[string][]byte{"replay.js": script}
		}, "replay.js")
		for _, want := range []string{"row 1: failed: flow step 5 (change): no option of the list has that label or value", "row 2: done", "1 of 2 rows failed"} {
			if !strings.Contains(out, want) {
				t.Errorf("the script's output does not say %q:\n%s", want, out)
			}
		}
	})
	t.Run("playwright", func(t *testing.T) {
		tools := needNode(t, "@playwright/test")
		out := run(t, "@playwright/test", func(s *skills.Skill) map[string][]byte {
			spec, err := Playwright(s, ExportOptions{CSV: "customers.csv"})
			if err != nil {
				t.Fatal(err)
			}
			return map[string][]byte{"new-customer.spec.js": spec, "playwright.config.js": interoptest.PlaywrightConfig()}
		}, filepath.Join(tools.Modules, "@playwright", "test", "cli.js"), "test", "--config", "playwright.config.js")
		if !strings.Contains(out, "1 failed") || !strings.Contains(out, "1 passed") {
			t.Errorf("the run does not report one row failed and one passed:\n%s", out)
		}
	})
}

// TestChromeRecorderExportOfAnImportedSkill: a Recorder flow sets a list by
// its option's value, which an imported skill does not know: the export
// is refused, naming the step and the formats that can. With the list's
// options known, the flow waits for the text that proves the row filed,
// and @puppeteer/replay's own runner files it.
func TestChromeRecorderExportOfAnImportedSkill(t *testing.T) {
	site := newFormSite(t)
	values := map[string]string{"first_name": "Grace", "email": "grace@example.test", "plan": "Enterprise", "newsletter": "false", "note": ""}
	_, _, err := ChromeRecorder(importedSkill(t, site.URL), values)
	if err == nil || !strings.Contains(err.Error(), "step 4 (select) sets a list whose option values the skill does not know") || !strings.Contains(err.Error(), ExportPuppeteerReplay) {
		t.Errorf("a Recorder export of a list without its values: %v; want refused, naming the step", err)
	}

	s := importedSkill(t, site.URL)
	s.Steps[3].Options = exportSkill(t, site.URL).Steps[3].Options
	flow, _, err := ChromeRecorder(s, values)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(flow), `document.body.innerText.includes(\"Customer created\")`) {
		t.Errorf("the flow does not wait for the text that proves the row filed:\n%s", flow)
	}
	// Imported again, the wait is the save's success check.
	flows, err := Import(flow)
	if err != nil {
		t.Fatalf("import of the exported flow: %v", err)
	}
	var texts []string
	for _, st := range flows[0].Steps {
		if st.Effect != nil {
			texts = append(texts, st.Effect.Texts...)
		}
	}
	if !slices.Equal(texts, []string{"Customer created"}) {
		t.Errorf("imported again, the flow's success texts are %q; want the one it waited for", texts)
	}
	tools := needNode(t, "@puppeteer/replay")
	out := tools.Run(t, exportDir(t, map[string][]byte{"flow.json": flow, "run.js": []byte(runFlowJS)}), "run.js", "flow.json")
	if diff := rowsEqual(site.Filed(), exportRows[1:2]); diff != "" {
		t.Fatalf("after the flow ran:\n%s\nits output:\n%s", diff, out)
	}
}
