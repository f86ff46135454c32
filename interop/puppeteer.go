package interop

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/skills"
)

// PuppeteerReplay writes s as a Node script that replays its Recorder
// flow with @puppeteer/replay once per row of the CSV: each row's values
// are filled into the flow's templates, a select gets its option's value,
// and a checkbox is clicked only when it is not already in the state the
// row wants.
func PuppeteerReplay(s *skills.Skill, o ExportOptions) ([]byte, error) {
	keep := func(v string) (string, error) {
		if _, err := skills.Placeholders(v); err != nil {
			return "", err
		}
		return v, nil
	}
	ex, err := exportFlow(s, keep)
	if err != nil {
		return nil, err
	}
	flow, err := json.MarshalIndent(ex.flow, "", "  ")
	if err != nil {
		return nil, err
	}
	toggles, _ := json.Marshal(ex.toggles)
	choices, _ := json.Marshal(ex.choices)
	ifs, _ := json.Marshal(ex.ifs)
	success, err := successJS(ex.success)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	head := []string{
		fmt.Sprintf("Exported from the reprise skill %q: replays its flow with @puppeteer/replay once for every row of the CSV.", s.Name),
		"Run it with:  node THIS_FILE [rows.csv]   (needs @puppeteer/replay and puppeteer-core; CHROME_PATH names the browser).",
		"",
		"What this script does not do that reprise does:",
	}
	for _, l := range lost(s, "this script waits for the success checks of the step that files the row, and reports the row failed when they do not come.") {
		head = append(head, "- "+l)
	}
	for _, n := range ex.notes {
		head = append(head, "- "+n)
	}
	b.WriteString("#!/usr/bin/env node\n")
	b.WriteString(comment(head))
	b.WriteString(`"use strict";` + "\n")
	b.WriteString(`const path = require("node:path");` + "\n")
	b.WriteString(`const { createRunner, PuppeteerRunnerExtension } = require("@puppeteer/replay");` + "\n")
	b.WriteString(`const puppeteer = require("puppeteer-core");` + "\n\n")
	b.WriteString(prelude)
	b.WriteString("\n")
	b.WriteString(parametersJS(s))
	fmt.Fprintf(&b, "const FLOW = %s;\n", flow)
	fmt.Fprintf(&b, "// The steps on a box, and the state (a template) it must end in.\nconst TOGGLES = %s;\n", toggles)
	fmt.Fprintf(&b, "// A list's options: the Recorder sets a select by its option's value.\nconst CHOICES = %s;\n", choices)
	fmt.Fprintf(&b, "// The checks that say the step filing a row succeeded (timeouts in ms).\nconst SUCCESS = %s;\n", success)
	fmt.Fprintf(&b, "// The steps only the rows that tick a box run (a field the box shows).\nconst IFS = %s;\n", ifs)
	csv := jsString(o.CSV)
	if !filepath.IsAbs(o.CSV) {
		csv = "path.join(__dirname, " + csv + ")"
	}
	fmt.Fprintf(&b, "const ROWS_FILE = process.argv[2] || %s;\n\n", csv)
	b.WriteString(puppeteerMain)
	return []byte(b.String()), nil
}

// jsCheck is a success check as the script reads it.
type jsCheck struct {
	Kind    string `json:"kind"`
	Value   string `json:"value,omitempty"`
	Timeout int64  `json:"timeout"`
}

// successJS writes the success checks by step index, refusing one the
// script cannot make: a row the script could not prove filed would be
// reported done.
func successJS(success map[int]skills.Conditions) (string, error) {
	out := map[int][]jsCheck{}
	for i, cs := range success {
		if !slices.ContainsFunc(cs, func(c skills.Condition) bool { return c.Kind != skills.CondURLUnchanged }) {
			return "", fmt.Errorf("the step that files a row is checked only by its page staying where it was, which proves nothing filed: this script could not tell a filed row from one the site refused")
		}
		for _, c := range cs {
			switch c.Kind {
			case skills.CondURLContains, skills.CondURLChanged, skills.CondURLUnchanged, skills.CondText, skills.CondElement, skills.CondRequestOK, skills.CondFormReset:
			default:
				return "", fmt.Errorf("the success check %s has no @puppeteer/replay equivalent here: reprise proves a row filed with it, this script could not", condition(c))
			}
			out[i] = append(out[i], jsCheck{Kind: c.Kind, Value: c.Value, Timeout: cmp.Or(timeoutMillis(c), 10_000)})
		}
	}
	b, err := json.Marshal(out)
	return string(b), err
}

const puppeteerMain = `// rowFlow is the flow with one row's values in it, the steps on boxes with
// the state each must end in, and the steps that file the row with their
// success checks, and the labels of the options set by their value; a
// step whose box the row leaves unticked (a field the box shows) is left out.
function rowFlow(values) {
  const boxes = new Map(), checks = new Map(), labels = new Map();
  const steps = FLOW.steps.map((step, i) => {
    const s = JSON.parse(JSON.stringify(step));
    if (s.url !== undefined) s.url = fillIn(s.url, values);
    if (s.value !== undefined) s.value = fillIn(s.value, values);
    if (s.selectors) s.selectors = s.selectors.map((parts) => parts.map((p) => fillIn(p, values)));
    if (CHOICES[i] && Object.prototype.hasOwnProperty.call(CHOICES[i], s.value)) {
      labels.set(s, s.value);
      s.value = CHOICES[i][s.value];
    }
    if (TOGGLES[i] !== undefined) boxes.set(s, fillIn(TOGGLES[i], values) === "true");
    if (SUCCESS[i]) checks.set(s, SUCCESS[i].map((c) => ({ ...c, value: c.value && fillIn(c.value, values) })));
    return s;
  }).filter((s, i) => IFS[i] === undefined || fillIn(IFS[i], values) === "true");
  return { flow: { ...FLOW, steps }, boxes, checks, labels };
}

// Extension does what a Recorder flow cannot say: it clicks a box only
// when it is not in the state the row wants, sets a list by the option
// whose label or value the cell names (opening a list the page draws, and
// reading the choice back), and waits for the success checks of
// the step that files the row.
class Extension extends PuppeteerRunnerExtension {
  constructor(browser, page, boxes, checks, labels) {
    super(browser, page, { timeout: 30000 });
    this.boxes = boxes;
    this.checks = checks;
    this.labels = labels;
    this.page = page;
  }
  element(step) {
    return Promise.any(step.selectors.map((s) => this.page.waitForSelector(s.join(" >>> "), { timeout: 30000 }))).catch(() => {
      throw new Error("no selector finds its element: " + step.selectors.map((s) => s.join(" >>> ")).join(" | "));
    });
  }
  // runStep names the flow's step that failed: its number and type.
  async runStep(step, flow) {
    try {
      return await this.run(step, flow);
    } catch (e) {
      throw new Error("flow step " + (flow.steps.indexOf(step) + 1) + " (" + step.type + "): " + e.message);
    }
  }
  async run(step, flow) {
    if (this.boxes.has(step)) {
      const el = await this.element(step);
      const checked = await el.evaluate((e) => e.checked === true || e.getAttribute("aria-checked") === "true");
      if (checked === this.boxes.get(step)) return;
    }
    if (step.type === "change" && step.selectors) {
      const el = await this.element(step);
      const drawn = await el.evaluate((e) => e.getAttribute("role") === "combobox" && !e.matches("select, textarea") &&
        (e.matches("input:not([readonly])") ? "typed" : "clicked"));
      if (drawn) {
        // A list drawn by the page (a combobox): it opens on a click, an
        // editable one lists its options once the label is typed, as a
        // person types it; the option is clicked, and the choice is read
        // back where the box shows it (itself, or the box around its input).
        const label = this.labels.get(step) ?? step.value;
        await el.click();
        if (drawn === "typed") await el.type(label);
        for (let tries = 1; ; tries++) {
          const option = await this.page.waitForFunction(shownOption, { timeout: 30000, polling: 100 }, label);
          try {
            await option.asElement().click();
            break;
          } catch (e) {
            // The list drew its options again between the look and the
            // click (a virtual list settling): look again. A click that
            // landed elsewhere fails the read-back below.
            if (tries === 3) throw e;
          }
        }
        await this.page.waitForFunction((e, v) => {
          if (e.matches("input") && e.value.trim() === v) return true;
          for (let a = e, i = 0; a && i < 4; a = a.parentElement, i++) if (a.textContent.trim() === v) return true;
          return false;
        }, { timeout: 5000, polling: 100 }, el, label);
        return;
      }
      const value = await el.evaluate(optionValue, step.value);
      if (value === null) throw new Error("no option of the list has that label or value");
      if (value !== undefined) step.value = value;
    }
    if (step.type === "click" && step.selectors) {
      // In the middle of the element, where a person clicks: the flow's
      // fixed offset is all a Recorder flow can say.
      const box = await (await this.element(step)).boundingBox();
      if (box) [step.offsetX, step.offsetY] = [box.width / 2, box.height / 2];
    }
    const checks = this.checks.get(step);
    if (!checks && step.type === "change") {
      // The field is left, as reprise leaves it: one that takes its typed
      // text on blur (a date picker's) holds it only then.
      await super.runStep(step, flow);
      return this.page.evaluate(() => document.activeElement && document.activeElement !== document.body && document.activeElement.blur());
    }
    if (!checks) return super.runStep(step, flow);
    const before = this.page.url();
    // The element that files the row, for its form's reset.
    const filer = checks.some((c) => c.kind === "form_reset") ? await this.element(step) : null;
    const answered = checks.filter((c) => c.kind === "request_ok").map((c) =>
      this.page.waitForResponse((r) => r.request().method() !== "GET" && ["document", "xhr", "fetch"].includes(r.request().resourceType()), { timeout: c.timeout }));
    await super.runStep(step, flow);
    for (const c of checks) {
      const opts = { timeout: c.timeout, polling: 100 };
      switch (c.kind) {
        case "url_contains": await this.page.waitForFunction((v) => location.href.includes(v), opts, c.value); break;
        case "url_changed": await this.page.waitForFunction((b) => location.href !== b, opts, before); break;
        case "text": await this.page.waitForFunction((t) => document.body && document.body.innerText.includes(t), opts, c.value); break;
        case "element": await this.page.waitForSelector(c.value, { timeout: c.timeout }); break;
        case "form_reset": await this.page.waitForFunction(formReset, opts, filer); break;
      }
    }
    // Once the rest held: a row saved in place leaves the page where it was.
    if (checks.some((c) => c.kind === "url_unchanged") && this.page.url() !== before) {
      throw new Error("the page left its address, where the demonstrations saved in place");
    }
    for (const r of await Promise.all(answered)) {
      if (r.status() >= 400) throw new Error("the site answered the request with " + r.status());
    }
  }
}

` + optionValueJS + `
// shownOption runs in the page: the one shown option named label, else,
// as a virtual list (antd's) gives the role to options for screen readers
// only, the one shown element whose whole text is label; null when none,
// or more than one, is.
function shownOption(label) {
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden"; };
  const one = (hits) => (hits.length === 1 ? hits[0] : null);
  return one(Array.from(document.querySelectorAll("[role=option]")).filter((o) => shown(o) && (o.getAttribute("aria-label") || o.textContent).trim() === label)) ||
    one(Array.from(document.querySelectorAll("body *")).filter((e) => e.children.length === 0 && e.textContent.trim() === label && shown(e)));
}
// formReset runs in the page: every field of el's form is back to its
// default, as a form saved in place is for the next one.
function formReset(el) {
  const form = el && el.isConnected && (el.form || el.closest("form"));
  if (!form) return false;
  return Array.from(form.elements).every((e) => {
    if (e.type === "checkbox" || e.type === "radio") return e.checked === e.defaultChecked;
    if (e.tagName === "SELECT") {
      const at = Array.from(e.options).findIndex((o) => o.defaultSelected);
      return e.multiple ? Array.from(e.options).every((o) => o.selected === o.defaultSelected) : e.selectedIndex === Math.max(at, 0);
    }
    return !("defaultValue" in e) || e.value === e.defaultValue;
  });
}

// A step that fails while @puppeteer/replay still waits for its navigation
// leaves that wait to reject later, unhandled: the row has failed already,
// and the rows after it still run.
process.on("unhandledRejection", (e) => console.error("a failed row's leftover wait: " + (e && e.message)));

(async () => {
  const rows = readRows(ROWS_FILE);
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
    headless: true,
    args: process.getuid && process.getuid() === 0 ? ["--no-sandbox"] : [],
  });
  let failed = 0;
  try {
    for (const row of rows) {
      const page = await browser.newPage();
      try {
        const { flow, boxes, checks, labels } = rowFlow(row.values);
        const runner = await createRunner(flow, new Extension(browser, page, boxes, checks, labels));
        if (!(await runner.run())) throw new Error("the flow did not finish");
        console.log("row " + row.n + ": done");
      } catch (e) {
        failed++;
        console.error("row " + row.n + ": failed: " + e.message);
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
  if (failed) {
    console.error(failed + " of " + rows.length + " rows failed");
    process.exitCode = 1;
  }
})().catch((e) => { console.error(e.message); process.exit(1); });
`
