package interop

import (
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/skills"
)

// TestPuppeteerReplayFilesTheRows runs the exported script with the real
// @puppeteer/replay and puppeteer-core on Chromium: every row filed once,
// with the values reprise would have filed.
func TestPuppeteerReplayFilesTheRows(t *testing.T) {
	tools := needNode(t, "@puppeteer/replay")
	site := newFormSite(t)
	s := exportSkill(t, site.URL)
	script, err := PuppeteerReplay(s, ExportOptions{CSV: "customers.csv"})
	if err != nil {
		t.Fatal(err)
	}
	dir := exportDir(t, map[string][]byte{"replay.js": script})
	out := tools.Run(t, dir, "replay.js")
	if diff := rowsEqual(site.Filed(), exportRows); diff != "" {
		t.Fatalf("after the export ran:\n%s\nits output:\n%s", diff, out)
	}
	for _, want := range []string{"Exactly once", "Read-backs", "Dedupe: reprise skips a row whose email"} {
		if !strings.Contains(string(script), want) {
			t.Errorf("the script's header does not say %q", want)
		}
	}
}

// TestChromeRecorderExportReplays replays a one-row Recorder export with
// @puppeteer/replay, as the Recorder panel or its CLI would.
func TestChromeRecorderExportReplays(t *testing.T) {
	tools := needNode(t, "@puppeteer/replay")
	site := newFormSite(t)
	s := exportSkill(t, site.URL)
	values := map[string]string{"first_name": "Grace", "email": "grace@example.test", "plan": "Enterprise", "newsletter": "false", "note": ""}
	flow, notes, err := ChromeRecorder(s, values)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) == 0 || !strings.Contains(strings.Join(notes, "\n"), "checkbox") {
		t.Errorf("notes %q do not say how the checkbox is exported", notes)
	}
	dir := exportDir(t, map[string][]byte{"flow.json": flow, "run.js": []byte(runFlowJS)})
	out := tools.Run(t, dir, "run.js", "flow.json")
	if diff := rowsEqual(site.Filed(), exportRows[1:2]); diff != "" {
		t.Fatalf("after the flow ran:\n%s\nits output:\n%s", diff, out)
	}
}

// runFlowJS replays a Recorder flow file with @puppeteer/replay's own
// parser and runner, nothing of reprise's.
const runFlowJS = `const fs = require("node:fs");
const { createRunner, parse, PuppeteerRunnerExtension } = require("@puppeteer/replay");
const puppeteer = require("puppeteer-core");
(async () => {
  const flow = parse(JSON.parse(fs.readFileSync(process.argv[2], "utf8")));
  const browser = await puppeteer.launch({ executablePath: process.env.CHROME_PATH, headless: true,
    args: process.getuid() === 0 ? ["--no-sandbox"] : [] });
  try {
    const page = await browser.newPage();
    const runner = await createRunner(flow, new PuppeteerRunnerExtension(browser, page, { timeout: 30000 }));
    if (!(await runner.run())) throw new Error("the flow did not finish");
  } finally { await browser.close(); }
})().catch((e) => { console.error(e.message); process.exit(1); });
`

// TestRecorderNavigatesWhereReplayDoes: a navigate step goes to its value,
// as the executor does, not to the page the step was recorded on.
func TestRecorderNavigatesWhereReplayDoes(t *testing.T) {
	s := exportSkill(t, "http://shop.example.test")
	s.Steps[0].URL = "http://shop.example.test/before"
	flow, _, err := ChromeRecorder(s, map[string]string{"first_name": "A", "email": "a@example.test", "plan": "Basic", "newsletter": "false", "note": ""})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(flow), `"url": "http://shop.example.test/new"`) || strings.Contains(string(flow), "/before") {
		t.Errorf("the exported navigate does not go to the step's value:\n%s", flow)
	}
}

// TestPuppeteerSuccessChecks: the script waits for every check a filing
// step has, a save in place among them, and refuses a step it could not
// prove filed: one checked only by its page staying put, or by a check it
// has no means for.
func TestPuppeteerSuccessChecks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		checks  skills.Conditions
		refused string
	}{
		{"saved in place with a text", skills.Conditions{{Kind: skills.CondURLUnchanged}, {Kind: skills.CondText, Value: "Saved"}}, ""},
		{"only staying put", skills.Conditions{{Kind: skills.CondURLUnchanged}}, "proves nothing filed"},
		{"saved in place and the form reset", skills.Conditions{{Kind: skills.CondURLUnchanged}, {Kind: skills.CondFormReset}}, ""},
		{"a check it has no means for", skills.Conditions{{Kind: "network_idle"}}, "network_idle has no @puppeteer/replay equivalent"},
	} {
		js, err := successJS(map[int]skills.Conditions{7: tc.checks})
		switch {
		case tc.refused == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.refused == "" && !strings.Contains(js, `"kind":"url_unchanged"`):
			t.Errorf("%s: the script does not check the page stayed: %s", tc.name, js)
		case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
			t.Errorf("%s: error %v; want it to say %q", tc.name, err, tc.refused)
		}
	}
}
