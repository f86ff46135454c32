package interop

import (
	"strings"
	"testing"
)

// TestExportsRunAStepOnlyWhereItsBoxIsTicked: a step with if: (a field a
// box shows when ticked) runs in the rows that tick the box, in every
// format, as in reprise's replay: the others would fail at a hidden
// field, or file what the row does not say.
func TestExportsRunAStepOnlyWhereItsBoxIsTicked(t *testing.T) {
	s := exportSkill(t, "http://127.0.0.1:9")
	note := -1
	for i, st := range s.Steps {
		if st.Label == "Note" {
			note = i
		}
	}
	if note < 0 {
		t.Fatal("the export fixture has no Note step")
	}
	s.Steps[note].If = "%newsletter%"
	values := func(news string) map[string]string {
		return map[string]string{"first_name": "A", "email": "a@example.test", "plan": "Basic", "newsletter": news, "note": "Call me"}
	}

	for news, want := range map[string]bool{"true": true, "false": false} {
		flow, _, err := ChromeRecorder(s, values(news))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(flow), "Call me"); got != want {
			t.Errorf("Recorder flow of a row with newsletter %s: fills the note %v; want %v\n%s", news, got, want, flow)
		}
	}

	spec, err := Playwright(s, ExportOptions{CSV: "customers.csv"})
	if err != nil {
		t.Fatal(err)
	}
	guard := `    if (fillIn("%newsletter%", row.values) === "true") {` + "\n" + `      await test.step("step 6: fill Note"`
	if !strings.Contains(string(spec), guard) {
		t.Errorf("the Playwright spec does not guard the note with the box:\n%s", spec)
	}
	nodeCheck(t, spec)

	script, err := PuppeteerReplay(s, ExportOptions{CSV: "customers.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), `const IFS = {"6":"%newsletter%"};`) || !strings.Contains(string(script), `.filter((s, i) => IFS[i] === undefined || fillIn(IFS[i], values) === "true")`) {
		t.Errorf("the @puppeteer/replay script does not leave the note out of rows without the box:\n%s", script)
	}
	nodeCheck(t, script)
}
