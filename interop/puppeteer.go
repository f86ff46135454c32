package interop

import (
	"encoding/json"
	"fmt"
	"path/filepath"
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
	var b strings.Builder
	head := []string{
		fmt.Sprintf("Exported from the reprise skill %q: replays its flow with @puppeteer/replay once for every row of the CSV.", s.Name),
		"Run it with:  node THIS_FILE [rows.csv]   (needs @puppeteer/replay and puppeteer-core; CHROME_PATH names the browser).",
		"",
		"What this script does not do that reprise does:",
	}
	for _, l := range lost(s, "this script only waits for the page its submit opens.") {
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
	csv := jsString(o.CSV)
	if !filepath.IsAbs(o.CSV) {
		csv = "path.join(__dirname, " + csv + ")"
	}
	fmt.Fprintf(&b, "const ROWS_FILE = process.argv[2] || %s;\n\n", csv)
	b.WriteString(puppeteerMain)
	return []byte(b.String()), nil
}

const puppeteerMain = `// rowFlow is the flow with one row's values in it.
function rowFlow(values) {
  const boxes = new Map();
  const steps = FLOW.steps.map((step, i) => {
    const s = JSON.parse(JSON.stringify(step));
    if (s.url !== undefined) s.url = fillIn(s.url, values);
    if (s.value !== undefined) s.value = fillIn(s.value, values);
    if (s.selectors) s.selectors = s.selectors.map((parts) => parts.map((p) => fillIn(p, values)));
    if (CHOICES[i] && Object.prototype.hasOwnProperty.call(CHOICES[i], s.value)) s.value = CHOICES[i][s.value];
    if (TOGGLES[i] !== undefined) boxes.set(s, fillIn(TOGGLES[i], values) === "true");
    return s;
  });
  return { flow: { ...FLOW, steps }, boxes };
}

// Extension clicks a box only when it is not in the state the row wants.
class Extension extends PuppeteerRunnerExtension {
  constructor(browser, page, boxes) {
    super(browser, page, { timeout: 10000 });
    this.boxes = boxes;
    this.page = page;
  }
  async runStep(step, flow) {
    if (this.boxes.has(step)) {
      const want = this.boxes.get(step);
      const el = await Promise.any(step.selectors.map((s) => this.page.waitForSelector(s.join(" >>> "), { timeout: 10000 })));
      const checked = await el.evaluate((e) => e.checked === true || e.getAttribute("aria-checked") === "true");
      if (checked === want) return;
    }
    await super.runStep(step, flow);
  }
}

(async () => {
  const rows = readRows(ROWS_FILE);
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
    headless: true,
    args: process.getuid && process.getuid() === 0 ? ["--no-sandbox"] : [],
  });
  try {
    for (const row of rows) {
      const page = await browser.newPage();
      const { flow, boxes } = rowFlow(row.values);
      const runner = await createRunner(flow, new Extension(browser, page, boxes));
      if (!(await runner.run())) throw new Error("row " + row.n + " did not finish");
      await page.close();
      console.log("row " + row.n + ": done");
    }
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error(e.message); process.exit(1); });
`
