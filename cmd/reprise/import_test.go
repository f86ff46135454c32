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

	"github.com/reprise-dev/reprise/events"
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
	t.Parallel()
	rig := newImportRig(t, "recorder", "new-customer-ada.json", "new-customer-grace.json", "customers.csv")
	out := rig.importFlows(t, 2)
	for _, want := range []string{"Tab presses", "setViewport", "a click on the field the next step fills", "reprise recordings review " + rig.recs[0]} {
		if !strings.Contains(out, want) {
			t.Errorf("skill import's output does not say %q:\n%s", want, out)
		}
	}
	shown := rig.reviewAndBuild(t)
	// Where the flows' Save led is how the skill knows a row was filed.
	if !regexp.MustCompile(`(?s)action: submit.*destructive: true.*kind: url_(contains|changed)`).MatchString(shown) {
		t.Errorf("the submit has no success check from the flows' asserted navigation:\n%s", shown)
	}
	rig.replayOnce(t, []map[string]string{
		{"first_name": "Linus", "email": "linus@example.test", "plan": "pro", "newsletter": "yes", "note": "Kernel, first", "reference": "R-300"},
		{"first_name": "Margaret", "email": "margaret@example.test", "plan": "basic", "newsletter": "", "note": "Apollo", "reference": "R-400"},
	})

	// Exported back with Ada's row, the flow means what the first did.
	exported := filepath.Join(rig.dir, "exported.json")
	if _, stderr, err := run(t, rig.home, "skill", "export", rig.skill, "--format", "chrome-recorder", "--rows", rig.csv, "--row", "1", "-o", exported); err != nil {
		t.Fatalf("skill export: %v\n%s", err, stderr)
	}
	got, err := os.ReadFile(exported)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(rig.files[0])
	if err != nil {
		t.Fatal(err)
	}
	if a, b := flowMeaning(t, orig), flowMeaning(t, got); !slices.Equal(a, b) {
		t.Errorf("the export does not mean what the imported flow did:\nimported: %q\nexported: %q", a, b)
	}
}

// TestImportedSideProjectReplaysOnce: a Selenium IDE project of two tests
// (a frame selected for one field, the text checked after Save) builds a
// skill like two demonstrations, which files the other rows once.
func TestImportedSideProjectReplaysOnce(t *testing.T) {
	t.Parallel()
	rig := newImportRig(t, "side", "new-customers.side", "customers.csv")
	out := rig.importFlows(t, 2)
	for _, want := range []string{"selectFrame", "assertText: the text checked after the click that sends the form is its success check"} {
		if !strings.Contains(out, want) {
			t.Errorf("skill import's output does not say %q:\n%s", want, out)
		}
	}
	shown := rig.reviewAndBuild(t)
	if !regexp.MustCompile(`(?s)destructive: true.*kind: text, value: Customer created`).MatchString(shown) {
		t.Errorf("the Save click has no success check from the tests' assertText:\n%s", shown)
	}
	rig.replayOnce(t, []map[string]string{
		{"first_name": "Linus", "email": "linus@example.test", "plan": "pro", "newsletter": "yes", "reference": "R-300"},
		{"first_name": "Margaret", "email": "margaret@example.test", "plan": "basic", "newsletter": "", "reference": "R-400"},
	})
	// The scripts read the CSV from beside them, named from their folder.
	for format, file := range map[string]string{"playwright": "new-customer.spec.js", "puppeteer-replay": "new-customer.js"} {
		out := filepath.Join(rig.dir, file)
		if _, stderr, err := run(t, rig.home, "skill", "export", rig.skill, "--format", format, "--rows", rig.csv, "-o", out); err != nil {
			t.Fatalf("skill export --format %s: %v\n%s", format, err, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `path.join(__dirname, "customers.csv")`) || !strings.Contains(string(b), "Exactly once") {
			t.Errorf("the %s export does not read customers.csv beside it or say what it does not do:\n%.600s", format, b)
		}
	}
}

// TestImportResolvesWhatToolsLeaveOut: flows written as the tools write
// them when they say less (the Recorder's name without its role for the
// newsletter box; Selenium IDE's click on the box, text typed into the
// plan list by its label and a select by its value) would lose the box
// and the list. With --resolve the import reads each element on the live
// page, and the skill files the other rows once and right.
func TestImportResolvesWhatToolsLeaveOut(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		folder string
		files  []string
		notes  []string
		want   []map[string]string
	}{
		{"recorder", []string{"bare-ada.json", "bare-grace.json"},
			[]string{"a click on a box leaves it checked", "the list's options are read from the page"},
			[]map[string]string{
				{"first_name": "Linus", "email": "linus@example.test", "plan": "pro", "newsletter": "yes", "note": "Kernel, first", "reference": "R-300"},
				{"first_name": "Margaret", "email": "margaret@example.test", "plan": "basic", "newsletter": "", "note": "Apollo", "reference": "R-400"},
			}},
		{"side", []string{"bare-customers.side"},
			[]string{"a click on a box leaves it checked", "text typed into a list is the choice of its option"},
			[]map[string]string{
				{"first_name": "Linus", "email": "linus@example.test", "plan": "pro", "newsletter": "yes", "reference": "R-300"},
				{"first_name": "Margaret", "email": "margaret@example.test", "plan": "basic", "newsletter": "", "reference": "R-400"},
			}},
	} {
		t.Run(tc.folder, func(t *testing.T) {
			t.Parallel()
			rig := newImportRig(t, tc.folder, append(tc.files, "customers.csv")...)
			out := rig.importFlows(t, 2, "--resolve")
			t.Logf("skill import --resolve:\n%s", out)
			for _, want := range tc.notes {
				if !strings.Contains(out, want) {
					t.Errorf("skill import --resolve does not say %q:\n%s", want, out)
				}
			}
			shown := rig.reviewAndBuild(t)
			for _, want := range []string{"role: checkbox", "action: select"} {
				if !strings.Contains(shown, want) {
					t.Errorf("the skill has no %q step:\n%s", want, shown)
				}
			}
			rig.replayOnce(t, tc.want)
		})
	}
}

// importRig is a daemon, the form site, and the flows and CSV of one
// testdata folder of the interop package, with the site's address in them.
type importRig struct {
	home, dir, csv, skill string
	files, recs           []string
	site                  *interoptest.Site
}

func newImportRig(t *testing.T, folder string, names ...string) *importRig {
	t.Helper()
	if _, err := chromium.Find(); err != nil {
		t.Skipf("IMPORT TEST SKIPPED: no Chromium on this machine (%v); scripts/deps installs it", err)
	}
	r := &importRig{home: t.TempDir(), dir: t.TempDir(), site: interoptest.NewSite(t)}
	startDaemonProcess(t, r.home)
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join("..", "..", "interop", "testdata", folder, name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(r.dir, name)
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "{{base}}", r.site.URL)), 0o600); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".csv") {
			r.csv = p
		} else {
			r.files = append(r.files, p)
		}
	}
	return r
}

// importFlows runs skill import and returns its output, which must name
// n recordings and no value of the flows.
func (r *importRig) importFlows(t *testing.T, n int, flags ...string) string {
	t.Helper()
	args := append([]string{"skill", "import", "--name", "new customer", "--rows", r.csv}, flags...)
	out, stderr, err := runWithin(t, r.home, 2*time.Minute, append(args, r.files...)...)
	if err != nil {
		t.Fatalf("skill import: %v\n%s%s", err, out, stderr)
	}
	for _, m := range importedPattern.FindAllStringSubmatch(out, -1) {
		r.recs = append(r.recs, m[1])
	}
	if len(r.recs) != n {
		t.Fatalf("skill import named %d recordings; want %d:\n%s", len(r.recs), n, out)
	}
	for _, v := range []string{"R-100", "ada@example.test", "Met at the fair"} {
		if strings.Contains(out+stderr, v) {
			t.Errorf("a flow's value %q reached the output", v)
		}
	}
	return out
}

// reviewAndBuild checks that no skill is built before a review, reviews
// each recording, builds the skill and returns what skill show prints.
func (r *importRig) reviewAndBuild(t *testing.T) string {
	t.Helper()
	build := append([]string{"skill", "build"}, r.recs...)
	build = append(build, "--name", "new customer", "--rows", r.csv)
	if _, stderr, err := run(t, r.home, build...); err == nil || !strings.Contains(stderr, "review") {
		t.Fatalf("a skill was built from unreviewed imports: %v\n%s", err, stderr)
	}
	for _, id := range r.recs {
		if _, stderr, err := run(t, r.home, "recordings", "review", id); err != nil {
			t.Fatalf("review %s: %v\n%s", id, err, stderr)
		}
	}
	out, stderr, err := run(t, r.home, build...)
	if err != nil {
		t.Fatalf("skill build: %v\n%s%s", err, out, stderr)
	}
	m := regexp.MustCompile(`saved skill (\S+), revision`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no skill saved:\n%s", out)
	}
	r.skill = m[1]
	shown, _, err := run(t, r.home, "skill", "show", r.skill)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the skill built from the imported flows:\n%s", shown)
	return shown
}

// replayOnce runs the first-run check (a dry run files nothing), then the
// skill twice: the rows the flows filed by hand are never filed, the
// others once, as want.
func (r *importRig) replayOnce(t *testing.T, want []map[string]string) {
	t.Helper()
	if out, stderr, err := runWithin(t, r.home, 5*time.Minute, "replay", r.skill, "--rows", r.csv, "--dry-run"); err != nil {
		t.Fatalf("dry run: %v\n%s%s", err, out, stderr)
	}
	if n := len(r.site.Filed()); n != 0 {
		t.Fatalf("the dry run filed %d customers", n)
	}
	var out, stderr string
	for round := range 2 {
		var err error
		if out, stderr, err = runWithin(t, r.home, 5*time.Minute, "replay", r.skill, "--rows", r.csv, "--yes"); err != nil {
			t.Fatalf("replay %d: %v\n%s%s", round+1, err, out, stderr)
		}
	}
	if diff := interoptest.RowsEqual(r.site.Filed(), want); diff != "" {
		t.Fatalf("after two replays:\n%s\nthe last replay said:\n%s%s", diff, out, stderr)
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
			b, _ := json.Marshal(byElement(e.Selectors))
			line += " " + e.Role + " " + e.Label + " " + string(b)
		}
		out = append(out, line)
	}
	return out
}

// byElement drops a step's XPaths where it has other selectors: an export
// writes a place in the page only when it has nothing else (the Recorder's
// runner races a step's selectors).
func byElement(sels []events.Selector) []events.Selector {
	other := slices.IndexFunc(sels, func(s events.Selector) bool { return s.Strategy != events.StrategyXPath }) >= 0
	if !other {
		return sels
	}
	return slices.DeleteFunc(slices.Clone(sels), func(s events.Selector) bool { return s.Strategy == events.StrategyXPath })
}
