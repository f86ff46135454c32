package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/interop"
	"github.com/reprise-dev/reprise/interop/interoptest"
)

var importedPattern = regexp.MustCompile(`as (rec_[0-9a-f-]+): (\d+) steps`)

// TestImportedFlowsReplayOnceAndExportBack: two Chrome Recorder flows
// written by hand from the published schema (aria/, pierce/ and xpath/
// selectors, a field in a shadow root, one in an iframe) are imported,
// reviewed and built into a skill like two demonstrations; the skill
// files every other row of the CSV exactly once, and exports back to a
// Recorder flow equal in meaning to the first.
func TestImportedFlowsReplayOnceAndExportBack(t *testing.T) {
	if _, err := chromium.Find(); err != nil {
		t.Skipf("IMPORT TEST SKIPPED: no Chromium on this machine (%v); scripts/deps installs it", err)
	}
	site := interoptest.NewSite(t)
	home, dir := t.TempDir(), t.TempDir()
	startDaemonProcess(t, home)
	src := filepath.Join("..", "..", "interop", "testdata", "recorder")
	var flows []string
	for _, name := range []string{"new-customer-ada.json", "new-customer-grace.json", "customers.csv"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "{{base}}", site.URL)), 0o600); err != nil {
			t.Fatal(err)
		}
		flows = append(flows, p)
	}
	csv := flows[2]
	flows = flows[:2]

	out, stderr, err := run(t, home, append([]string{"skill", "import", "--name", "new customer", "--rows", csv}, flows...)...)
	if err != nil {
		t.Fatalf("skill import: %v\n%s%s", err, out, stderr)
	}
	var recs []string
	for _, m := range importedPattern.FindAllStringSubmatch(out, -1) {
		recs = append(recs, m[1])
		if m[2] != "8" && m[2] != "7" {
			t.Errorf("imported %s with %s steps; want 8 (Ada) or 7 (Grace, no newsletter click)", m[1], m[2])
		}
	}
	if len(recs) != 2 {
		t.Fatalf("skill import did not name two recordings:\n%s", out)
	}
	for _, want := range []string{"Tab presses", "setViewport", "a click on the field the next step fills", "reprise recordings review " + recs[0]} {
		if !strings.Contains(out, want) {
			t.Errorf("skill import's output does not say %q:\n%s", want, out)
		}
	}
	for _, v := range []string{"Met at the fair", "R-100", "ada@example.test"} {
		if strings.Contains(out+stderr, v) {
			t.Errorf("a flow's value %q reached the output", v)
		}
	}

	// The same gate as a demonstration: no skill before a review.
	build := append([]string{"skill", "build"}, recs...)
	build = append(build, "--name", "new customer", "--rows", csv)
	if _, stderr, err := run(t, home, build...); err == nil || !strings.Contains(stderr, "REVIEW_REQUIRED") && !strings.Contains(stderr, "review") {
		t.Fatalf("a skill was built from unreviewed imports: %v\n%s", err, stderr)
	}
	for _, id := range recs {
		if _, stderr, err := run(t, home, "recordings", "review", id); err != nil {
			t.Fatalf("review %s: %v\n%s", id, err, stderr)
		}
	}
	out, stderr, err = run(t, home, build...)
	if err != nil {
		t.Fatalf("skill build: %v\n%s%s", err, out, stderr)
	}
	m := regexp.MustCompile(`saved skill (\S+), revision`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no skill saved:\n%s", out)
	}
	skill := m[1]
	shown, _, err := run(t, home, "skill", "show", skill)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the skill built from the imported flows:\n%s", shown)
	// Where the flows' Save led is how the skill knows a row was filed.
	if !regexp.MustCompile(`(?s)action: submit.*destructive: true.*kind: url_(contains|changed)`).MatchString(shown) {
		t.Errorf("the submit has no success check from the flows' asserted navigation:\n%s", shown)
	}

	// The same first-run check: a dry run files nothing.
	if out, stderr, err := runWithin(t, home, 5*time.Minute, "replay", skill, "--rows", csv, "--dry-run"); err != nil {
		t.Fatalf("dry run: %v\n%s%s", err, out, stderr)
	}
	if n := len(site.Filed()); n != 0 {
		t.Fatalf("the dry run filed %d customers", n)
	}
	// Ada and Grace were filed by hand (the flows): the replay files the
	// other two, once, and a second run files nothing.
	for round := range 2 {
		out, stderr, err = runWithin(t, home, 5*time.Minute, "replay", skill, "--rows", csv, "--yes")
		if err != nil {
			t.Fatalf("replay %d: %v\n%s%s", round+1, err, out, stderr)
		}
	}
	want := []map[string]string{
		{"first_name": "Linus", "email": "linus@example.test", "plan": "pro", "newsletter": "yes", "note": "Kernel, first", "reference": "R-300"},
		{"first_name": "Margaret", "email": "margaret@example.test", "plan": "basic", "newsletter": "", "note": "Apollo", "reference": "R-400"},
	}
	if diff := interoptest.RowsEqual(site.Filed(), want); diff != "" {
		t.Fatalf("after two replays:\n%s\nthe last replay said:\n%s%s", diff, out, stderr)
	}

	// Exported back with Ada's row, the flow means what the first did.
	exported := filepath.Join(dir, "exported.json")
	if _, stderr, err := run(t, home, "skill", "export", skill, "--format", "chrome-recorder", "--rows", csv, "--row", "1", "-o", exported); err != nil {
		t.Fatalf("skill export: %v\n%s", err, stderr)
	}
	got, err := os.ReadFile(exported)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(flows[0])
	if err != nil {
		t.Fatal(err)
	}
	if a, b := flowMeaning(t, orig), flowMeaning(t, got); !slices.Equal(a, b) {
		t.Errorf("the export does not mean what the imported flow did:\nimported: %q\nexported: %q", a, b)
	}
}

// flowMeaning is what a Recorder flow does, step by step, as reprise reads
// it: each step's action (a submit is a click the flow asserts a
// navigation after), value and the element's selectors by strategy; what
// reprise absorbs (a viewport, Tab, a
// click that only focused a field, a scroll) is not part of it.
func flowMeaning(t *testing.T, flow []byte) []string {
	t.Helper()
	fs, err := interop.Import(flow)
	if err != nil {
		t.Fatalf("%v\n%s", err, flow)
	}
	var out []string
	for _, s := range fs[0].Steps {
		line := s.Action
		if s.Value != nil {
			line += " " + s.Value.Raw
		}
		if e := s.Enrichment; e != nil {
			b, _ := json.Marshal(e.Selectors)
			line += " " + e.Role + " " + e.Label + " " + string(b)
		}
		out = append(out, line)
	}
	return out
}
