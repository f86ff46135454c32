package forms

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/e2e"
	"github.com/reprise-dev/reprise/internal/paired"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/zoo"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay/report"
)

// zooRows is how many generated rows each zoo form's replay files: 10 in
// make test, where twenty-one forms share two cores with every other
// package; REPRISE_ZOO_ROWS asks for more (make zoo runs 100).
func zooRows(t *testing.T) int {
	s := os.Getenv("REPRISE_ZOO_ROWS")
	if s == "" {
		return 10
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("REPRISE_ZOO_ROWS=%q: want a number of rows", s)
	}
	return n
}

// zooCase is what the person answers for one form of the zoo, and the
// questions skill build must ask before those answers: the keys it names,
// exactly (an identical choice with a CSV column is a question, never a
// constant).
type zooCase struct {
	questions []string
	answers   []string
	// refused says which rows must fail, filing nothing: a row the form
	// would store otherwise than the CSV says.
	refused func(row map[string]string) bool
}

// TestZoo is reprise on forms written the way people write them (native and
// ARIA choices, listboxes, combo boxes, dates three ways, saves in place and
// by redirect, a confirm dialog, a wizard, a reformatting field, a shuffled
// layout): for each, a person demonstrates it twice through the real
// extension in real Chromium, skill build asks exactly the expected
// questions and saves with the scripted answers, and the replay of the rows
// stores every row once and right. No row may be stored wrong while the
// report says committed, and every row is in the report.
func TestZoo(t *testing.T) {
	t.Parallel()
	runZoo(t, zoo.Forms(), zooCases)
}

// TestZooLibraries is the zoo's forms built from the stock components of
// antd, React Aria Components and Mantine (issue 33): tag pickers,
// multi-select lists, checkbox groups in one cell, dates in sections and
// picked in calendars, ranges, async comboboxes and a field a box reveals.
func TestZooLibraries(t *testing.T) {
	t.Parallel()
	runZoo(t, zoo.LibraryForms(), nil) // none asks a question
}

// runZoo demonstrates, builds and replays every form, two at a time.
func runZoo(t *testing.T, forms []*zoo.Form, cases map[string]zooCase) {
	if testing.Short() {
		t.Skip("the zoo runs real Chromium with the extension: skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	// Forms run two at a time, each on a rig of its own: much of a form's
	// time is waiting on pages and servers, not on the two cores.
	rigs := make(chan *zooRig, zooRigs)
	for range zooRigs {
		rigs <- newZooRig(ctx, t)
	}
	site := zoo.Serve()
	defer site.Close()

	var mu sync.Mutex
	table := map[string]string{}
	t.Run("forms", func(t *testing.T) {
		for _, f := range forms {
			t.Run(f.Name, func(t *testing.T) {
				t.Parallel()
				rig := <-rigs
				defer func() { rigs <- rig }()
				defer func() {
					if t.Failed() {
						t.Logf("the daemon's log:\n%s", lastLines(rig.logs.String(), 40))
					}
				}()
				line := zooForm(ctx, t, rig, site, f, cases[f.Name])
				mu.Lock()
				table[f.Name] = line
				mu.Unlock()
			})
		}
	})
	var lines []string
	for _, f := range forms {
		lines = append(lines, cmp.Or(table[f.Name], f.Name+" (did not finish)"))
	}
	head := fmt.Sprintf("%-16s %5s %9s %5s %7s %6s %9s", "form", "rows", "committed", "wrong", "unknown", "failed", "questions")
	var formats []string
	if os.Getenv(exportsEnv) != "" {
		formats = exportFormats
	}
	if os.Getenv(importsEnv) != "" {
		formats = append(formats, importFormats...)
	}
	for _, format := range formats {
		head += fmt.Sprintf(" %16s", format)
	}
	t.Logf("zoo:\n%s\n%s", head, strings.Join(lines, "\n"))
}

// zooRigs is how many forms run at once.
const zooRigs = 2

// zooRig is a daemon and a Chromium with the extension paired with it: it
// records one demonstration at a time.
type zooRig struct {
	home string
	logs *syncbuf.Buffer
	br   *paired.Browser
}

func newZooRig(ctx context.Context, t *testing.T) *zooRig {
	t.Helper()
	r := &zooRig{home: t.TempDir(), logs: new(syncbuf.Buffer)}
	startDaemonProcessLogs(t, r.home, r.logs, "--consent-prompt", "cli")
	var err error
	if r.br, err = paired.Launch(ctx, r.home, t.TempDir(), false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.br.Close)
	return r
}

// zooForm runs one form end to end and returns its line of the table.
func zooForm(ctx context.Context, t *testing.T, rig *zooRig, site *zoo.Site, f *zoo.Form, c zooCase) string {
	dir, home := t.TempDir(), rig.home
	var recs []string
	for _, row := range f.Demos() {
		recs = append(recs, demonstrate(ctx, t, home, rig.br, site, f, row))
	}
	for _, id := range recs {
		zooCLI(t, home, nil, "recordings", "review", id)
	}
	defer func() {
		if t.Failed() { // what the recorder made of the person's demonstrations
			for _, id := range recs {
				out, _ := zooCLIErr(t, home, nil, "recordings", "show", id)
				t.Logf("recording %s:\n%s", id, out)
			}
		}
	}()

	// The person's CSV: the two rows they demonstrated, then the rest.
	header, rows := f.Rows(zooRows(t), int64(len(f.Name)))
	demos := f.Demos()
	sample := e2e.WriteCSV(t, filepath.Join(dir, "sample.csv"), header, append([][]string{demos[0], demos[1]}, rows...))

	build := []string{"skill", "build", "--name", "zoo " + f.Name, "--rows", sample}
	out, err := zooCLIErr(t, home, nil, append(build, recs...)...)
	asked := questionKeys(out)
	if !slices.Equal(asked, c.questions) {
		t.Errorf("skill build asked %q; want %q\n%s", asked, c.questions, out)
	}
	if len(asked) > 0 && err == nil {
		t.Errorf("skill build saved with %d question(s) open", len(asked))
	}
	answers := filepath.Join(dir, "answers.txt")
	if err := os.WriteFile(answers, []byte(strings.Join(c.answers, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out = zooCLI(t, home, nil, append(append(build, "--confirm-file", answers), recs...)...)
	skillID := regexp.MustCompile(`saved skill (\S+),`).FindStringSubmatch(out)
	if skillID == nil {
		t.Fatalf("skill build did not save:\n%s", out)
	}
	t.Logf("skill:\n%s", zooCLI(t, home, nil, "skill", "show", skillID[1]))

	// The person replays the CSV they demonstrated its first two rows of:
	// those were filed by hand, and must not be filed again.
	reportPath := filepath.Join(dir, "report.json")
	before := len(site.Records(f.Name))
	out, _ = zooCLIErr(t, home, strings.NewReader("y\n"), "replay", skillID[1], "--rows", sample, "--report", reportPath, "--on-error", "skip")
	t.Logf("replay:\n%s", out)
	got := e2e.ReadReport(t, reportPath)
	for _, r := range got[:min(2, len(got))] {
		if r.Outcome != report.Skipped || !strings.Contains(r.Reason, "by hand") {
			t.Errorf("demonstrated row %d reported %s (%s); want skipped: filed by hand", r.N, r.Outcome, r.Reason)
		}
	}
	records := site.Records(f.Name)[before:]
	line, takes := judge(t, f, header, rows, got[min(2, len(got)):], records, len(asked), c, 3)
	for _, cell := range exportCells(t, home, skillID[1], site, f, header, rows, takes) {
		line += fmt.Sprintf(" %16s", cell)
	}
	for _, cell := range importCells(t, home, skillID[1], sample, f, c, header, rows) {
		line += fmt.Sprintf(" %16s", cell)
	}
	return line
}

// judge compares the report with what the site stored, and fails the test
// for any row stored wrong or twice, any row missing from the report, and
// any row reported committed that the site does not hold as the CSV says.
// first is the CSV row number of rows[0].
func judge(t *testing.T, f *zoo.Form, header []string, rows [][]string, got []report.Row, records []zoo.Record, questions int, c zooCase, first int) (line string, takes int) {
	t.Helper()
	chk, err := zoo.Check(f.Name, header, rows, records)
	if err != nil {
		t.Fatal(err)
	}
	outcome := map[int]string{}
	for _, r := range got {
		outcome[r.N-first+1] = r.Outcome // by index in rows, from 1
	}
	if len(got) != len(rows) {
		t.Errorf("the report holds %d rows; the CSV has %d", len(got), len(rows))
	}
	wrong := map[int]bool{}
	for _, p := range chk.Problems {
		wrong[p.Row] = true
		t.Errorf("stored wrong (reported %s): %s", outcome[p.Row+1], p)
	}
	missing := map[int]bool{}
	for _, p := range chk.Missing {
		missing[p.Row] = true
	}
	count := map[string]int{}
	for i := range rows {
		o := outcome[i+1]
		count[o]++
		switch {
		case o == "":
			t.Errorf("row %d is not in the report", i+first)
		case o == report.Committed && missing[i]:
			t.Errorf("row %d reported committed, but the site does not hold it", i+first)
		case (o == report.Failed || o == report.Skipped) && !missing[i]:
			t.Errorf("row %d reported %s, but the site holds it", i+first, o)
		}
	}
	for _, r := range got {
		if r.Outcome != report.Committed {
			t.Logf("row %d %s at step %d: %s", r.N, r.Outcome, r.Step, r.Reason)
		}
	}
	// Every other row of the zoo's CSVs is one the form takes: a row not
	// committed is honest, but it is reprise failing the person.
	want := 0
	for i, row := range rows {
		cells := map[string]string{}
		for j, h := range header {
			cells[h] = row[j]
		}
		switch {
		case c.refused == nil || !c.refused(cells):
			want++
		case outcome[i+1] != report.Failed:
			t.Errorf("row %d reported %s; the form would store it otherwise than the CSV says, so it must fail", i+first, outcome[i+1])
		}
	}
	if count[report.Committed] != want {
		t.Errorf("%d of %d rows committed; the form takes %d", count[report.Committed], len(rows), want)
	}
	return fmt.Sprintf("%-16s %5d %9d %5d %7d %6d %9d", f.Name, len(rows), count[report.Committed], len(wrong),
		count[report.Unknown], count[report.Failed], questions), want
}

// demonstrate records the person filling the form for one row and returns
// the recording's id.
func demonstrate(ctx context.Context, t *testing.T, home string, br *paired.Browser, site *zoo.Site, f *zoo.Form, row []string) string {
	t.Helper()
	out := zooCLI(t, home, nil, "record", "start", "--channels", "browser", "--yes")
	id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
	if id == "" {
		t.Fatalf("record start printed no recording id:\n%s", out)
	}
	stopped := false
	defer func() {
		if !stopped { // a failed demonstration must not keep the next one from starting
			out, err := zooCLIErr(t, home, nil, "record", "stop")
			t.Logf("record stop after the failure: %v\n%s", err, out)
		}
	}()
	if !client.WaitBrowserJoined(ctx, home, id, joinWait) {
		t.Fatalf("the extension did not join recording %s", id)
	}
	pctx, cancel := context.WithTimeout(br.Ctx, 90*time.Second)
	defer cancel()
	if err := f.Person(pctx, site.URL(), row); err != nil {
		t.Fatalf("the person: %v", err)
	}
	waitCommitRecorded(ctx, t, home, br, id)
	zooCLI(t, home, nil, "record", "stop")
	stopped = true
	return id
}

// waitCommitRecorded waits until the recording holds a destructive step
// with what followed it: the extension sends it once the page settled,
// which takes a second or two once the step's requests are answered. An
// observation still open at 20 s waits on a request long done: the cap for
// an unanswered one is 30 s (a post's redirect once left its first leg open
// that long on every form that redirects).
func waitCommitRecorded(ctx context.Context, t *testing.T, home string, br *paired.Browser, id string) {
	t.Helper()
	nc, ci, err := client.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	oc := ops.NewClient(nc, events.OpsSubject(ci.MachineID))
	deadline := time.Now().Add(20 * time.Second)
	for {
		var rec events.Recording
		if err := oc.Call(ctx, ops.TypeFetch, ops.RecordingRef{RecordingID: id}, &rec); err == nil {
			for _, s := range rec.Steps {
				if s.Effect != nil {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			var got []string
			for _, s := range rec.Steps {
				if s.Enrichment != nil {
					got = append(got, fmt.Sprintf("%s %s %q", s.Action, s.Enrichment.Role, s.Enrichment.Label))
				} else {
					got = append(got, s.Action)
				}
			}
			st, _ := client.QueryStatus(home)
			t.Fatalf("recording %s holds no step with an effect after 20 s; it holds %q; status %+v; the extension: %s", id, got, st.Recording, workerState(br))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// questionKeys reads the keys skill build asks about: "1. [plan] ...".
func questionKeys(out string) []string {
	var keys []string
	for _, m := range regexp.MustCompile(`(?m)^\d+\. \[([^\]]+)\] `).FindAllStringSubmatch(out, -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// zooCLI runs the reprise binary and fails the test when it fails.
func zooCLI(t *testing.T, home string, stdin *strings.Reader, args ...string) string {
	t.Helper()
	out, err := zooCLIErr(t, home, stdin, args...)
	if err != nil {
		t.Fatalf("reprise %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// zooCLIErr runs the reprise binary and returns its output, both streams.
func zooCLIErr(t *testing.T, home string, stdin *strings.Reader, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+home)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	return b.String(), err
}

// zooCases are the questions each form's build must ask, and the person's
// answers. Filled from what a person who knows the form would answer.
var zooCases = map[string]zooCase{
	// The CSV's internal_note fills no field; the promo code is left as the
	// page has it.
	"native-choices": {
		questions: []string{"column:internal_note", "field:Promo code"},
		answers:   []string{"column:internal_note=ignore", "field:Promo code=ignore"},
	},
	"aria-choices": {},
	// Both demonstrations chose Medium; the CSV has a size for every row.
	"select-values": {
		questions: []string{"size"},
		answers:   []string{"size=tshirt_size"},
	},
	"listbox":         {},
	"combobox-select": {},
	"autocomplete":    {},
	// Both demonstrations left the box unchecked: the column fills it. The
	// CSV's source is the person's own.
	"save-in-place": {
		questions: []string{"column:tax_exempt", "column:source"},
		answers:   []string{"column:tax_exempt=Tax exempt", "column:source=ignore"},
	},
	"redirect":       {},
	"confirm-dialog": {},
	// Both demonstrations billed yearly; the CSV has the cycle of each row.
	"wizard": {
		questions: []string{"billing"},
		answers:   []string{"billing=billing_cycle"},
	},
	// Both demonstrations chose the same call time. A number written with
	// its country code (+1 555 ...) goes into the field as eleven digits,
	// which it cuts to ten: read back, the field holds another number, so
	// those rows fail and nothing of them is filed.
	"phone": {
		questions: []string{"best_time_to_call"},
		answers:   []string{"best_time_to_call=call_time"},
		refused:   func(row map[string]string) bool { return strings.HasPrefix(row["phone_number"], "+1") },
	},
	"shuffled": {
		questions: []string{"membership"},
		answers:   []string{"membership=level"},
	},
}

// workerState says what the extension's service worker holds.
func workerState(br *paired.Browser) string {
	st, err := paired.WorkerState(br.Ctx)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprint(st)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
