package interop

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// TestPlaywrightSpec checks the spec's shape without running it: the
// header says what is lost, elements are found by role and name first,
// values come from the row, the same skill gives the same bytes, and node
// parses it.
func TestPlaywrightSpec(t *testing.T) {
	s := exportSkill(t, "http://127.0.0.1:9")
	spec, err := Playwright(s, ExportOptions{CSV: "customers.csv"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Playwright(exportSkill(t, "http://127.0.0.1:9"), ExportOptions{CSV: "customers.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(spec, again) {
		t.Error("Playwright gave different bytes for the same skill")
	}
	want := []string{
		`const { test, expect } = require("@playwright/test");`,
		"npx playwright test new-customer.spec.js",
		"CHROME_PATH",
		`const ROWS = readRows(process.env.REPRISE_ROWS || path.join(__dirname, "customers.csv"));`,
		`test.use({ launchOptions: process.env.CHROME_PATH ? { executablePath: process.env.CHROME_PATH } : {} });`,
		`test.describe.configure({ mode: "default" });`,
		"test(`row ${row.n}`",
		`await page.goto(fillIn("http://127.0.0.1:9/new", row.values));`,
		"const field = await one(\n        page.getByRole(\"textbox\", { name: \"First name\", exact: true }),\n" +
			"        page.locator(\"#first_name\"),\n        page.locator(\"[name=\\\"first_name\\\"]\"),\n" +
			"        page.getByLabel(\"First name\", { exact: true }));",
		`await field.fill(fillIn("%first_name%", row.values));`,
		"const field = await one(\n        page.getByRole(\"combobox\", { name: \"Plan\", exact: true }),",
		`async function one(...locators) {`,
		`await choose(page, field, fillIn("%plan%", row.values));`,
		`.setChecked(fillIn("%newsletter%", row.values) === "true");`,
		`page.locator("note-field input")`,
		`page.getByRole("button", { name: "Save", exact: true })`,
		`page.locator("#customer button[type=submit]"));`,
		`await expect(page).toHaveURL(new RegExp("/customers/"), { timeout: 10000 });`,
	}
	for _, l := range lost(s, playwrightChecks) {
		want = append(want, " * - "+l)
	}
	for _, w := range want {
		if !bytes.Contains(spec, []byte(w)) {
			t.Errorf("the spec lacks %s", w)
		}
	}
	for _, cell := range []string{"Ada", "ada@example.test", "Met at the fair"} {
		if bytes.Contains(spec, []byte(cell)) {
			t.Errorf("the spec holds the CSV's %q: it must read the rows, never inline them", cell)
		}
	}
	if bytes.Contains(spec, []byte(".first().fill")) || bytes.Contains(spec, []byte(".first()\n")) {
		t.Error("the spec picks the first of several elements: reprise refuses two matches")
	}
	nodeCheck(t, spec)
}

// nodeCheck has node parse the spec, when node is installed.
func nodeCheck(t *testing.T, spec []byte) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Log("no node on PATH: the spec's syntax is not checked (scripts/deps installs it)")
		return
	}
	file := filepath.Join(t.TempDir(), "export.spec.js")
	if err := os.WriteFile(file, spec, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(node, "--check", file).CombinedOutput(); err != nil {
		t.Fatalf("node --check: %v\n%s", err, out)
	}
}

// TestPlaywrightSteps checks how each kind of step is written: what
// Playwright can do as code, what it cannot as a comment that says so, and
// no text of the skill able to end a comment or a string early.
func TestPlaywrightSteps(t *testing.T) {
	s := &skills.Skill{
		Version: 1,
		Name:    "every */ step",
		Parameters: []skills.Parameter{
			{Name: "size", Column: "Size", Type: "enum"},
			{Name: "files", Column: "Files", Type: "text"},
			{Name: "name", Column: "Name", Type: "text"},
		},
		Steps: []skills.Step{
			{Action: "navigate", Value: "https://example.test/login?next=%%2F"},
			{Action: "fill", Role: "textbox", Label: "Password", Secret: true, Selectors: []skills.Selector{{Strategy: "id", Value: "#pw"}}},
			{Action: "fill", Keys: true, Value: "%name%", Target: &selector.Selector{Role: "text_field", Name: "Code *"}},
			{Action: "select", Role: "radiogroup", Label: "Size", Value: "%size%"},
			{Action: "upload", Value: "%files%", Selectors: []skills.Selector{{Strategy: "css", Value: "input[type=file]"}, {Strategy: "role+text", Value: "statictext[name='Files']"}}},
			{Action: "wait", Wait: &skills.Condition{Kind: skills.CondText, Value: "Ready"}},
			{Action: "click", Role: "button", Label: "Delete */ now\nfor good", Dialog: "dismiss", When: &skills.Check{}},
			{Action: "submit", Role: "textbox", Label: "Search", Destructive: true, Assert: skills.Conditions{
				{Kind: skills.CondURLChanged, Timeout: "5s"},
				{Kind: skills.CondText, Value: "Saved %name%"},
				{Kind: skills.CondFormReset},
				{Kind: skills.CondURLContains, Value: "/items/%name%?"},
			}},
			{Action: "click", Selectors: []skills.Selector{{Strategy: "xpath", Value: `//a[text()="Next"]`}, {Strategy: "name", Value: `say "hi"`}}},
			{Action: "click", Selectors: []skills.Selector{{Strategy: "xpath", Value: `//main/button[2]`}}},
		},
	}
	spec, err := Playwright(s, ExportOptions{CSV: "/data/rows.csv"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		`readRows(process.env.REPRISE_ROWS || "/data/rows.csv")`,
		`Exported from the reprise skill "every * / step"`,
		`await page.goto(fillIn("https://example.test/login?next=%%2F", row.values));`,
		`// TODO step 2: fill Password: a password.`,
		`//   await (await one(page.getByRole("textbox", { name: "Password", exact: true }), page.locator("#pw"))).fill(process.env.PASSWORD);`,
		`const field = page.getByRole("textbox", { name: new RegExp("^Code .*$") });`,
		`await field.pressSequentially(fillIn("%name%", row.values));`,
		`await choose(page, field, fillIn("%size%", row.values));`,
		// A fieldset of radios is a group to Playwright.
		"page.getByRole(\"radiogroup\", { name: \"Size\", exact: true }),\n        page.getByRole(\"group\", { name: \"Size\", exact: true }))",
		`.setInputFiles(fillIn("%files%", row.values).split(`,
		`// step 6: wait for text "Ready": not expressed; reprise checks it, this script does not.`,
		`// step 7: click Delete */ now for good: its when check is not expressed; it runs for every row.`,
		"dismiss = true;\n      const field = page.getByRole(\"button\", { name: \"Delete */ now\\nfor good\", exact: true });",
		`let dismiss = false;`,
		`const before = page.url();`,
		`.press("Enter");`,
		`await expect(page).not.toHaveURL(before, { timeout: 5000 });`,
		`await expect(page.getByText(fillIn("Saved %name%", row.values)).filter({ visible: true }).first()).toBeVisible();`,
		`// The check form_reset is not expressed.`,
		`await expect(page).toHaveURL(new RegExp(fillIn("/items/%name%?", row.values).replace(`,
		// An XPath is a place, not an element: only where nothing else is.
		`const field = page.locator("[name=\"say \\\"hi\\\"\"]");`,
		`page.locator("xpath=//main/button[2]")`,
	} {
		if !bytes.Contains(spec, []byte(w)) {
			t.Errorf("the spec lacks %s", w)
		}
	}
	if bytes.Contains(spec, []byte(`xpath=//a`)) {
		t.Error("the spec finds an element by its XPath where it has a name to find it by")
	}
	if bytes.Contains(spec, []byte("statictext")) {
		t.Error("the spec names a role Playwright does not know")
	}
	nodeCheck(t, spec)
}

// TestPlaywrightRefuses checks that a step a browser test cannot do is
// refused with its number, not dropped.
func TestPlaywrightRefuses(t *testing.T) {
	s := exportSkill(t, "http://127.0.0.1:9")
	s.Steps[2].Action = "launch_app"
	_, err := Playwright(s, ExportOptions{CSV: "customers.csv"})
	if err == nil || !strings.Contains(err.Error(), "step 3 (launch_app)") {
		t.Errorf("Playwright with a launch_app step: %v; want an error naming step 3", err)
	}
	asks := exportSkill(t, "http://127.0.0.1:9")
	asks.Steps[2] = skills.Step{Action: skills.ActionAsk, Prompt: "the code", As: "code"}
	for format, export := range map[string]func(*skills.Skill) error{
		"playwright": func(s *skills.Skill) error { _, err := Playwright(s, ExportOptions{CSV: "customers.csv"}); return err },
		"puppeteer-replay": func(s *skills.Skill) error {
			_, err := PuppeteerReplay(s, ExportOptions{CSV: "customers.csv"})
			return err
		},
		"chrome-recorder": func(s *skills.Skill) error {
			_, _, err := ChromeRecorder(s, map[string]string{"first_name": "A", "email": "a@example.test", "plan": "Basic", "newsletter": "false", "note": ""})
			return err
		},
	} {
		if err := export(asks); err == nil || !strings.Contains(err.Error(), "step 3 (ask)") || !strings.Contains(err.Error(), "asks a person") {
			t.Errorf("%s with an ask step: %v; want refused, naming step 3", format, err)
		}
		// A date field drawn as segments, React Aria's: a group to fill.
		segments := exportSkill(t, "http://127.0.0.1:9")
		segments.Steps[2].Role, segments.Steps[2].Target = "group", &selector.Selector{Role: "group", Name: "Start Date"}
		if err := export(segments); err == nil || !strings.Contains(err.Error(), "step 3 (fill)") || !strings.Contains(err.Error(), "a group of fields") {
			t.Errorf("%s with a fill of a group of fields: %v; want refused, naming step 3", format, err)
		}
		items := exportSkill(t, "http://127.0.0.1:9")
		for i, st := range items.Steps {
			if st.Action == "select" {
				items.Steps[i].Multiple = true
				if err := export(items); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("step %d (select)", i+1)) || !strings.Contains(err.Error(), "a set of items") {
					t.Errorf("%s with a select of several items: %v; want refused, naming step %d", format, err, i+1)
				}
				break
			}
		}
	}
	if _, err := Playwright(exportSkill(t, "http://127.0.0.1:9"), ExportOptions{}); err == nil {
		t.Error("Playwright with no CSV: no error")
	}
}

// TestPlaywrightFilesTheRows runs the exported spec with the real
// @playwright/test on Chromium against the local form: every row of
// customers.csv filed once, with the values reprise would have filed.
func TestPlaywrightFilesTheRows(t *testing.T) {
	tools := needNode(t, "@playwright/test")
	if p := os.Getenv("CHROME_PATH"); p != "" {
		tools.Chrome = p
	}
	site := newFormSite(t)
	spec, err := Playwright(exportSkill(t, site.URL), ExportOptions{CSV: "customers.csv"})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, err := tools.PlaywrightTest(t, exportDir(t, map[string][]byte{"new-customer.spec.js": spec}))
	if err != nil {
		t.Fatalf("playwright test: %v\n%s", err, out)
	}
	t.Logf("playwright test filed %d rows in %v", len(site.Filed()), time.Since(start).Round(time.Millisecond))

	if diff := rowsEqual(site.Filed(), exportRows); diff != "" {
		t.Fatalf("after the spec ran:\n%s\nits output:\n%s", diff, out)
	}
	filed := map[string]int{}
	for _, c := range site.Filed() {
		filed[c["email"]]++
	}
	for _, r := range exportRows {
		if filed[r["email"]] != 1 {
			t.Errorf("%s filed %d times; want once", r["email"], filed[r["email"]])
		}
	}
	if !strings.Contains(out, "3 passed") {
		t.Errorf("the run does not report 3 passed tests:\n%s", out)
	}
}
