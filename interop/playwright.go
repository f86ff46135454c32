package interop

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// playwrightChecks is what the spec makes of a skill's success checks.
const playwrightChecks = "this test checks the address and text conditions, and says at the step which it cannot check."

// Playwright writes s as a CommonJS @playwright/test spec a person runs
// without reprise: one test per row of the CSV, in order, each filling the
// row's values (mapped as reprise maps them) into the skill's steps. Each
// element is found by its role and name first, then by the recorded
// selectors in order, each used only when it finds exactly one element, as
// in reprise. What reprise does that the spec does not is said at its
// top. The same skill gives the same bytes.
func Playwright(s *skills.Skill, o ExportOptions) ([]byte, error) {
	if o.CSV == "" {
		return nil, fmt.Errorf("ExportOptions.CSV is empty: name the CSV the test reads")
	}
	file := specName(s.Name)
	head := []string{
		fmt.Sprintf("Exported from the reprise skill %q: a Playwright test for every row of the CSV, filed in order as reprise files them.", s.Name),
		"Run it, saved as " + file + " (Playwright runs the files named *.spec.js), with @playwright/test installed:",
		"  npx playwright test " + file,
		"  CHROME_PATH=/usr/bin/chromium npx playwright test " + file + "   to use an installed Chromium instead of Playwright's own",
		"  REPRISE_ROWS=other.csv npx playwright test " + file + "   to read another CSV",
		"It runs headless (add --headed to watch). A row that fails is reported and the rows after it still run; the run then exits non-zero.",
		"",
		"What this script does not do that reprise does:",
	}
	for _, l := range lost(s, playwrightChecks) {
		head = append(head, "- "+l)
	}
	var body strings.Builder
	dismiss, choose := false, false
	for i, st := range s.Steps {
		dismiss = dismiss || st.Dialog == "dismiss"
		choose = choose || (st.Action == events.ActionSelect || untyped(st)) && !st.Secret
		if err := writeStep(&body, i+1, st); err != nil {
			return nil, fmt.Errorf("step %d (%s): %w", i+1, st.Action, err)
		}
	}

	var b strings.Builder
	b.WriteString(comment(head))
	b.WriteString(`"use strict";` + "\n")
	b.WriteString(`const { test, expect } = require("@playwright/test");` + "\n")
	b.WriteString(`const path = require("node:path");` + "\n\n")
	b.WriteString(prelude)
	b.WriteString("\n")
	b.WriteString(parametersJS(s))
	csv := jsString(o.CSV)
	if !filepath.IsAbs(o.CSV) {
		csv = "path.join(__dirname, " + csv + ")"
	}
	b.WriteString("\n// The CSV's rows, each cell mapped as reprise maps it; REPRISE_ROWS names another CSV.\n")
	fmt.Fprintf(&b, "const ROWS = readRows(process.env.REPRISE_ROWS || %s);\n\n", csv)
	b.WriteString("// CHROME_PATH names an installed Chromium to run instead of Playwright's own.\n")
	b.WriteString("test.use({ launchOptions: process.env.CHROME_PATH ? { executablePath: process.env.CHROME_PATH } : {} });\n")
	b.WriteString("// One row after another, as reprise files them; a failed row does not stop the others.\n")
	b.WriteString(`test.describe.configure({ mode: "default" });` + "\n")
	b.WriteString(oneJS)
	if choose {
		b.WriteString(chooseJS)
		b.WriteString("\n" + optionValueJS)
	}
	b.WriteString("\nfor (const row of ROWS) {\n")
	b.WriteString("  test(`row ${row.n}`, async ({ page }) => {\n")
	if dismiss {
		b.WriteString("    // reprise dismisses the dialogs of the steps that say so and accepts the others, a prompt with its default text.\n")
		b.WriteString("    let dismiss = false;\n")
		b.WriteString(`    page.on("dialog", (dialog) => (dismiss ? dialog.dismiss() : dialog.accept(dialog.defaultValue())));` + "\n")
	} else {
		b.WriteString("    // reprise accepts the dialogs a step opens, a prompt with its default text.\n")
		b.WriteString(`    page.on("dialog", (dialog) => dialog.accept(dialog.defaultValue()));` + "\n")
	}
	b.WriteString(body.String())
	b.WriteString("  });\n}\n")
	return []byte(b.String()), nil
}

// oneJS finds a step's element as reprise does: by its role and name
// first, then by what else was recorded of it, never by a guess among
// several.
const oneJS = `
// one returns the first of a step's locators, in order, that finds exactly
// one element: the role and name first, then the recorded selectors. A
// locator that finds several elements proves none of them and is passed
// over; the page is waited for as Playwright waits for an element.
async function one(...locators) {
  const deadline = Date.now() + 15000;
  for (;;) {
    for (const l of locators) if ((await l.count()) === 1) return l;
    if (Date.now() > deadline) throw new Error("no locator of the step finds exactly one element: " + locators.join(" | "));
    await new Promise((r) => setTimeout(r, 100));
  }
}
`

// chooseJS picks an option as reprise does: the prelude maps a cell onto
// the option's label, which a <select> may lack when only values were
// recorded.
const chooseJS = `
// choose picks the option labelled label: in a <select> the option whose
// label or value it is (exactly, else ignoring case, accents and spacing);
// in a radio group (any element holding radios) or a list box by
// clicking the radio or option of that name; in any other box by
// opening it (typing the label into one that lists nothing until typed
// into) and clicking the option of that name. An empty label leaves
// the choice as it is, as reprise leaves an optional choice unset.
async function choose(page, field, label) {
  const kind = await field.evaluate((e) =>
    e.tagName === "SELECT" ? "select" : e.querySelector("input[type=radio], [role=radio]") ? "radiogroup" : e.getAttribute("role") || "");
  if (kind === "select") {
    const value = await field.evaluate(optionValue, label);
    if (value === null) throw new Error("no option of the list has that label or value");
    await field.selectOption({ value });
    return;
  }
  if (label === "") return;
  if (kind === "radiogroup") return field.getByRole("radio", { name: label, exact: true }).check();
  if (kind === "listbox") {
    const option = field.getByRole("option", { name: label, exact: true });
    // A list that selects its first option when it takes the focus (and
    // scrolls to it) does so now, not under the option's click.
    await field.focus();
    await option.click();
    return expect(option).toHaveAttribute("aria-selected", "true");
  }
  await field.click();
  const option = page.getByRole("option", { name: label, exact: true });
  const listed = await option.waitFor({ timeout: 2000 }).then(() => true, () => false);
  if (!listed && (await field.evaluate((e) => e.matches("input:not([readonly]), textarea:not([readonly]), [contenteditable=true]")))) {
    // An autocomplete lists its options once typed into, as a person types.
    await field.fill("");
    await field.pressSequentially(label);
  }
  let target = option;
  if (!(await option.isVisible().catch(() => false))) {
    // A list whose options carry their role only for screen readers (a
    // virtual list) shows them as plain elements: the one visible element
    // whose whole text is the label, and only one, is the option.
    const shown = page.getByText(label, { exact: true }).filter({ visible: true });
    // Such a list draws its items a moment after the typing that filters it.
    await shown.first().waitFor({ timeout: 5000 }).catch(() => {});
    if ((await shown.count()) === 1) target = shown;
  }
  // A list that shows no such option fails the row here, at once, rather
  // than at the test's timeout.
  await target.click({ timeout: 10000 });
}

// put enters value in a field the skill does not know the kind of: a list
// gets the option it names, as reprise's replay does, any other field the
// text.
async function put(page, field, value) {
  if (await field.evaluate((e) => e.tagName === "SELECT")) return choose(page, field, value);
  await field.fill(value);
  await field.blur();
}
`

// untyped says a fill step does not know what its field is (an imported
// one, found by CSS alone): a Recorder's change and Selenium's type are
// fills of lists too.
func untyped(st skills.Step) bool {
	return st.Action == events.ActionFill && !st.Keys && !st.Secret && st.Role == "" && st.Target == nil
}

// writeStep writes step n as a test.step, or as a comment where Playwright
// cannot do what reprise does.
func writeStep(b *strings.Builder, n int, st skills.Step) error {
	for _, v := range []string{st.Value, st.URL} {
		if _, err := skills.Placeholders(v); err != nil {
			return err
		}
	}
	name := stepName(n, st)
	switch st.Action {
	case events.ActionWait, events.ActionAssert, skills.ActionExpect:
		what := ""
		if st.Wait != nil {
			what = " for " + condition(*st.Wait)
		}
		fmt.Fprintf(b, "    // %s%s: not expressed; reprise checks it, this script does not.\n", name, what)
		return nil
	}
	if st.Wait != nil {
		fmt.Fprintf(b, "    // %s: its wait for %s is not expressed; Playwright waits for each element by itself.\n", name, condition(*st.Wait))
	}
	if st.When != nil {
		fmt.Fprintf(b, "    // %s: its when check is not expressed; it runs for every row.\n", name)
	}
	switch {
	case st.Action == events.ActionSelect && st.Multiple:
		return errItems
	case segmented(st):
		return errSegments
	case st.Action == skills.ActionAsk:
		return errors.New("it asks a person, which a Playwright test cannot: a row filed without the answer would be filed wrong")
	case st.Secret:
		loc, err := locator(st)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "    // TODO %s: a password. reprise hands it to a person and never keeps its value; fill it here from a safe place, e.g.\n", name)
		field := loc[0]
		if len(loc) > 1 {
			field = "(await one(" + strings.Join(loc, ", ") + "))"
		}
		fmt.Fprintf(b, "    //   await %s.fill(process.env.PASSWORD);\n", field)
		return nil
	}

	var act []string
	value := "fillIn(" + jsString(st.Value) + ", row.values)"
	switch st.Action {
	case events.ActionNavigate:
		act = append(act, "await page.goto(fillIn("+jsString(cmp.Or(st.Value, st.URL))+", row.values));")
	case events.ActionFill, events.ActionSelect, events.ActionClick, events.ActionSubmit, events.ActionUpload:
		loc, err := locator(st)
		if err != nil {
			return err
		}
		act = append(act, "const field = "+fieldJS(loc)+";")
		switch {
		case st.Action == events.ActionFill && st.Keys:
			// The field reacted to keys: type it key by key, as reprise does.
			act = append(act, `await field.fill("");`, "await field.pressSequentially("+value+");", "await field.blur();")
		case untyped(st):
			act = append(act, "await put(page, field, "+value+");")
		case st.Action == events.ActionFill:
			// Left, as reprise leaves it: a field that takes its typed
			// text on blur (a date picker's) holds it only then.
			act = append(act, "await field.fill("+value+");", "await field.blur();")
		case st.Action == events.ActionSelect:
			act = append(act, "await choose(page, field, "+value+");")
		case st.Action == events.ActionUpload:
			act = append(act, "await field.setInputFiles("+value+".split(/\\r?\\n/).map((f) => f.trim()).filter(Boolean));")
		case st.Action == events.ActionClick && toggles(st):
			act = append(act, "await field.setChecked("+value+` === "true");`)
		case st.Action == events.ActionSubmit && textField(st):
			act = append(act, `await field.press("Enter");`)
		default:
			act = append(act, "await field.click();")
		}
	default:
		return fmt.Errorf("a %s step has no Playwright equivalent: a Playwright test drives a browser page", st.Action)
	}
	if st.Dialog == "dismiss" {
		act = append([]string{"dismiss = true;"}, append(act, "dismiss = false;")...)
	}
	var checks []string
	if len(st.Assert) > 0 && !st.Destructive {
		checks = append(checks, "// The checks after this step are not expressed.")
	}
	if st.Destructive {
		for _, c := range st.Assert {
			checks = append(checks, check(c))
			if c.Kind == skills.CondURLChanged && !slices.Contains(act, beforeJS) {
				act = append([]string{beforeJS}, act...)
			}
		}
	}
	if st.Output {
		checks = append(checks, "// reprise keeps the file this step downloads as the row's output; this script does not.")
	}
	indent := "    "
	if st.If != "" {
		// A field a box shows when ticked: only the rows that tick it.
		fmt.Fprintf(b, "    if (fillIn(%s, row.values) === \"true\") {\n", jsString(st.If))
		indent += "  "
	}
	fmt.Fprintf(b, "%sawait test.step(%s, async () => {\n", indent, jsString(name))
	for _, l := range append(act, checks...) {
		b.WriteString(indent + "  " + l + "\n")
	}
	b.WriteString(indent + "});\n")
	if st.If != "" {
		b.WriteString("    }\n")
	}
	return nil
}

// beforeJS keeps the address a url_changed check compares with.
const beforeJS = "const before = page.url();"

// check writes a destructive step's success check as an expect, or a
// comment for one Playwright does not express.
func check(c skills.Condition) string {
	opts := ""
	if ms := timeoutMillis(c); ms > 0 {
		opts = ", { timeout: " + strconv.FormatInt(ms, 10) + " }"
	}
	switch c.Kind {
	case skills.CondURLContains:
		re := "new RegExp(" + jsString(regexp.QuoteMeta(c.Value)) + ")"
		if strings.Contains(c.Value, "%") {
			re = "new RegExp(fillIn(" + jsString(c.Value) + `, row.values).replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))`
		}
		return "await expect(page).toHaveURL(" + re + opts + ");"
	case skills.CondURLChanged:
		return "await expect(page).not.toHaveURL(before" + opts + ");"
	case skills.CondText:
		// Visible anywhere on the page: several matches are no ambiguity here.
		return "await expect(page.getByText(fillIn(" + jsString(c.Value) + ", row.values)).filter({ visible: true }).first()).toBeVisible(" + strings.TrimPrefix(opts, ", ") + ");"
	}
	return "// The check " + condition(c) + " is not expressed."
}

// condition names a wait or check for a comment.
func condition(c skills.Condition) string {
	if c.Value == "" {
		return c.Kind
	}
	return c.Kind + " " + jsString(c.Value)
}

// stepName names step n in the test's report: its number, action and label.
func stepName(n int, st skills.Step) string {
	name := fmt.Sprintf("step %d: %s", n, st.Action)
	label := st.Label
	if label == "" && st.Target != nil {
		label = st.Target.Name
	}
	if label != "" {
		name += " " + oneLine(label)
	}
	return name
}

// toggles says a click sets a box's state: the step's value is the state
// ("true", "false" or a row's boolean).
func toggles(st skills.Step) bool {
	switch strings.ToLower(st.Role) {
	case "checkbox", "switch":
		return st.Value != ""
	}
	if st.Target != nil && st.Target.Role == "checkbox" {
		return st.Value != ""
	}
	return st.Value == "true" || st.Value == "false"
}

// pwRoles maps reprise's recorded roles (ARIA, see selector.RoleOf) onto
// the roles getByRole takes; a role missing here is found otherwise.
var pwRoles = map[string]string{
	"button": "button", "menubutton": "button", "togglebutton": "button",
	"textbox": "textbox", "searchbox": "searchbox", "spinbutton": "spinbutton", "textarea": "textbox",
	"heading": "heading", "paragraph": "paragraph",
	"checkbox": "checkbox", "switch": "switch", "radio": "radio",
	"combobox": "combobox", "listbox": "listbox", "select": "combobox",
	"option": "option", "listitem": "listitem", "treeitem": "treeitem", "row": "row",
	"menuitem": "menuitem", "menuitemcheckbox": "menuitemcheckbox", "menuitemradio": "menuitemradio",
	"tab": "tab", "link": "link",
	"cell": "cell", "gridcell": "gridcell", "columnheader": "columnheader", "rowheader": "rowheader",
	"list": "list", "grid": "grid", "table": "table", "tree": "tree", "treegrid": "treegrid", "tablist": "tablist",
	"group": "group", "radiogroup": "radiogroup", "toolbar": "toolbar", "form": "form", "region": "region", "tabpanel": "tabpanel",
	"dialog": "dialog", "alertdialog": "alertdialog",
}

// targetRoles maps a selector's roles onto getByRole's, where one is
// plain: a list_item may be an option, a list item or a row.
var targetRoles = map[string]string{
	"button": "button", "text_field": "textbox", "checkbox": "checkbox", "radio": "radio",
	"combo_box": "combobox", "menu_item": "menuitem", "tab": "tab", "link": "link",
}

// locator writes the step's element as Playwright locators, in the order
// they are tried: by role and name (else by label) first, then the step's
// target, then each recorded selector; an XPath only when there is
// nothing else, since it names a place in the page, not an element (on a
// form whose fields move, the place holds another field).
func locator(st skills.Step) ([]string, error) {
	var parts, xpaths []string
	seen := map[string]bool{}
	add := func(l string) {
		if l != "" && !seen[l] {
			seen[l] = true
			parts = append(parts, l)
		}
	}

	role := pwRoles[strings.ToLower(st.Role)]
	switch {
	case role != "" && st.Label != "":
		add(byRole(role, st.Label))
		if role == "radiogroup" {
			// A fieldset of radios named by its legend is a group to
			// Playwright, and reprise reads it as a radio group.
			add(byRole("group", st.Label))
		}
	case st.Label != "":
		add(byLabel(st.Label))
	}
	if st.Target != nil {
		add(targetLocator(st.Target, "page"))
	}
	for _, sel := range st.Selectors {
		if sel.Strategy == events.StrategyXPath {
			xpaths = append(xpaths, selectorLocator(sel))
			continue
		}
		add(selectorLocator(sel))
	}
	if len(parts) == 0 {
		parts = xpaths
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("its element has no label, role, id, name or selector a Playwright locator can use")
	}
	return parts, nil
}

// fieldJS writes the expression that finds a step's element from its
// locators: the one locator itself (Playwright refuses two matches), or
// one() over them in order.
func fieldJS(loc []string) string {
	if len(loc) == 1 {
		return loc[0]
	}
	return "await one(\n        " + strings.Join(loc, ",\n        ") + ")"
}

func byRole(role, name string) string {
	return fmt.Sprintf("page.getByRole(%s, { name: %s, exact: true })", jsString(role), jsString(name))
}

func byLabel(label string) string {
	return fmt.Sprintf("page.getByLabel(%s, { exact: true })", jsString(label))
}

// selectorLocator writes one recorded selector as a locator, or "" for
// one Playwright has no counterpart of.
func selectorLocator(sel skills.Selector) string {
	v := sel.Value
	switch sel.Strategy {
	case events.StrategyID:
		return "page.locator(" + jsString("#"+cssIdent(strings.TrimPrefix(v, "#"))) + ")"
	case events.StrategyName:
		if strings.HasPrefix(v, "[") {
			return "page.locator(" + jsString(v) + ")"
		}
		return "page.locator(" + jsString(`[name="`+cssString(v)+`"]`) + ")"
	case events.StrategyLabel:
		return byLabel(v)
	case events.StrategyRoleText:
		role, name, ok := parseRoleText(v)
		if r := pwRoles[strings.ToLower(role)]; ok && r != "" {
			return byRole(r, name)
		}
	case events.StrategyCSS:
		return "page.locator(" + jsString(v) + ")"
	case events.StrategyXPath:
		return "page.locator(" + jsString("xpath="+v) + ")"
	}
	return ""
}

// targetLocator writes a step's target, inside its containers, as a
// locator from base; "" when a part of it has no counterpart (a role
// Playwright cannot name, a near label).
func targetLocator(t *selector.Selector, base string) string {
	if t.Near != nil {
		return ""
	}
	if t.In != nil {
		if base = targetLocator(t.In, base); base == "" {
			return ""
		}
	}
	var l string
	switch role := targetRoles[t.Role]; {
	case role != "" && t.Name != "" && strings.Contains(t.Name, "*"):
		parts := strings.Split(t.Name, "*")
		for i, p := range parts {
			parts[i] = regexp.QuoteMeta(p)
		}
		l = fmt.Sprintf("%s.getByRole(%s, { name: new RegExp(%s) })", base, jsString(role), jsString("^"+strings.Join(parts, ".*")+"$"))
	case role != "" && t.Name != "":
		l = fmt.Sprintf("%s.getByRole(%s, { name: %s, exact: true })", base, jsString(role), jsString(t.Name))
	case t.ID != "":
		l = base + ".locator(" + jsString("#"+cssIdent(t.ID)) + ")"
	default:
		return ""
	}
	if t.Nth != nil {
		l += fmt.Sprintf(".nth(%d)", *t.Nth)
	}
	return l
}

// specName is the file name the header suggests: the skill's name in
// lower case, words joined by hyphens.
func specName(name string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w)
	}
	if b.Len() == 0 {
		b.WriteString("skill")
	}
	return b.String() + ".spec.js"
}

// oneLine keeps s on one line of a comment or a step's title.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
	}), " ")
}
