package chrome_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skills"
)

// TestTwoRowsBecomeASkill is the path from demonstrations to a skill with no
// model: a person fills the form for two rows in real Chromium, one
// recording each; the daemon refuses to build before they are reviewed;
// reviewed, they generalize into a skill whose parameters are joined to a
// sample CSV's columns (named unlike the labels) by the values demonstrated.
func TestTwoRowsBecomeASkill(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	home := startDaemon(ctx, t)
	site := serveForm()
	defer site.Close()
	bctx := pairedBrowser(ctx, t, home)

	header := []string{"given_name", "E-mail address", "Organisation", "Country", "Remarks", "Since", "Ref"}
	rows := [][]string{
		{"Ada", "ada@example.com", "Analytical Engines", "France", "Prefers email", "2024-03-01", "REF-1"},
		{"Grace", "grace@example.com", "Cobol Ltd", "Germany", "Call first", "2023-12-09", "REF-2"},
	}
	var recIDs []string
	for _, row := range rows {
		started := startBrowserRecording(ctx, t, home)
		waitRecording(t, bctx)
		err := chromedp.Do(bctx,
			chromedp.Navigate(site.URL+"/customers/new"),
			chromedp.WaitVisible("#first_name"),
			chromedp.Click("#first_name"), chromedp.SendKeys("#first_name", row[0]),
			chromedp.Click(`input[name=email]`), chromedp.SendKeys(`input[name=email]`, row[1]),
			chromedp.Click(`input[id^="input-"]`), chromedp.SendKeys(`input[id^="input-"]`, row[2]),
			chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("country"); s.value = "`+row[3]+`"; s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
			chromedp.Click("#notes"), chromedp.SendKeys("#notes", row[4]),
			chromedp.Evaluate[chromedp.Void](`(() => { const d = document.getElementById("since"); d.value = "`+row[5]+`"; d.dispatchEvent(new Event("change", {bubbles: true})); })()`),
			chromedp.Evaluate[chromedp.Void](`(() => { const i = document.getElementById("host").shadowRoot.getElementById("ref"); i.focus(); i.value = "`+row[6]+`"; i.dispatchEvent(new Event("change", {bubbles: true, composed: true})); })()`),
			chromedp.Click(`button[type=submit]`),
			chromedp.WaitVisible(`#done`),
		)
		if err != nil {
			t.Fatalf("play the person: %v", err)
		}
		stopAndFetch(ctx, t, home, started) // the stop takes the submit the extension holds for its effect
		recIDs = append(recIDs, started.RecordingID)
	}

	nc, ci, err := client.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	build := func() api.SkillBuildReply {
		b, _ := json.Marshal(api.SkillBuildRequest{Name: "New customer", Recordings: recIDs, Header: header, SampleRows: rows})
		m, err := nc.RequestWithContext(ctx, events.LocalSkillBuild, b)
		if err != nil {
			t.Fatal(err)
		}
		var reply api.SkillBuildReply
		if err := json.Unmarshal(m.Data, &reply); err != nil {
			t.Fatal(err)
		}
		return reply
	}
	if r := build(); r.Error == nil || r.Error.Code != ops.CodeReviewRequired || r.Saved {
		t.Fatalf("build before review = %+v; want REVIEW_REQUIRED", r)
	}
	oc := ops.NewClient(nc, events.OpsSubject(ci.MachineID))
	for _, id := range recIDs {
		var applied ops.ReviewApplied
		if err := oc.Call(ctx, ops.TypeApplyReview, ops.ReviewRequest{RecordingID: id}, &applied); err != nil {
			t.Fatal(err)
		}
	}
	r := build()
	if r.Error != nil || !r.Saved {
		t.Fatalf("build after review: %+v\n%s", r, r.YAML)
	}
	skill, err := skills.Parse([]byte(r.YAML))
	if err != nil {
		t.Fatalf("the saved skill does not parse: %v\n%s", err, r.YAML)
	}
	joined := map[string]string{}
	for _, p := range skill.Parameters {
		joined[p.Column] = p.Name
	}
	for _, col := range header {
		if joined[col] == "" {
			t.Errorf("no parameter reads column %q; parameters %+v", col, skill.Parameters)
		}
	}
	if !slices.ContainsFunc(skill.Steps, func(s skills.Step) bool { return s.Destructive }) {
		t.Errorf("no step of the skill is destructive, though the form is submitted:\n%s", r.YAML)
	}
	if strings.Contains(r.YAML, "Ada") || strings.Contains(r.YAML, "Cobol") {
		t.Errorf("a row's value became part of the skill:\n%s", r.YAML)
	}
	t.Logf("skill %s revision %d:\n%s", r.SkillID, r.Revision, r.YAML)

	// A platform's dry run of the drafted skill: rows 1-2 filled in the
	// daemon's own Chromium, nothing submitted.
	var dry ops.DryRunResult
	if err := oc.Call(ctx, ops.TypeDryRunReplay, ops.DryRunRequest{Recordings: recIDs, Header: header, Rows: rows}, &dry); err != nil {
		t.Fatal(err)
	}
	if len(dry.Rows) != 2 || dry.Rows[0].Outcome != "dry_run" || dry.Rows[1].Outcome != "dry_run" {
		t.Fatalf("DRY_RUN_REPLAY = %+v; want rows 1-2 filled", dry)
	}
}
