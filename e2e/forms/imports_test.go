package forms

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/internal/e2e"
	"github.com/reprise-dev/reprise/internal/zoo"
	"github.com/reprise-dev/reprise/interop/interoptest"
	"github.com/reprise-dev/reprise/replay/report"
	"github.com/reprise-dev/reprise/skills"
)

// importsEnv turns on the import round trips (make zoo-exports sets it
// with exportsEnv).
const importsEnv = "REPRISE_ZOO_IMPORTS"

// importFormats are the tools whose recordings the import round trips
// write, in the table's order.
var importFormats = []string{"recorder-import", "side-import"}

// importCells runs the import round trips for one form when importsEnv is
// set: the two demonstrated rows written as Chrome's Recorder and as
// Selenium IDE record them, imported with --resolve on a fresh site,
// reviewed, built and replayed over the other rows, and judged by what the
// site stored. A row stored wrong, or reported committed while the site
// does not hold it, fails the test; a refusal (to write, import or build)
// is a cell of the table, with its reason in the log.
func importCells(t *testing.T, home, skillID, sample string, f *zoo.Form, c zooCase, header []string, rows [][]string) []string {
	if os.Getenv(importsEnv) == "" {
		return nil
	}
	var cells []string
	for _, format := range importFormats {
		cells = append(cells, importCell(t, home, skillID, sample, f, c, header, rows, format))
	}
	return cells
}

var importedRec = regexp.MustCompile(`as (rec_[0-9a-f-]+): \d+ steps`)

func importCell(t *testing.T, home, skillID, sample string, f *zoo.Form, c zooCase, header []string, rows [][]string, format string) string {
	dir := t.TempDir()
	demonstrated, err := skills.Parse([]byte(zooCLI(t, home, nil, "skill", "show", skillID)))
	if err != nil {
		t.Fatalf("skill show: %v", err)
	}
	fresh := zoo.Serve()
	defer fresh.Close()
	// The flows reprise exports for the two rows the person demonstrated,
	// on the fresh site: the recordings the tools would have made there.
	var flows [][]byte
	for row := 1; row <= 2; row++ {
		path := filepath.Join(dir, fmt.Sprintf("exported%d.json", row))
		out, err := zooCLIErr(t, home, nil, "skill", "export", skillID, "--format", "chrome-recorder", "--rows", sample, "--row", fmt.Sprint(row), "-o", path)
		if err != nil {
			t.Logf("%s: no Recorder flow to start from:\n%s", format, out)
			return "no flow"
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		flows = append(flows, []byte(strings.ReplaceAll(string(b), siteOf(t, b), fresh.URL())))
	}
	var files []string
	write := func(name string, b []byte) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	switch format {
	case "recorder-import":
		for i, fl := range flows {
			b, err := interoptest.AsRecorder(fl, fmt.Sprintf("%s %d", f.Name, i+1))
			if err != nil {
				t.Fatal(err)
			}
			write(fmt.Sprintf("recorded%d.json", i+1), b)
		}
	case "side-import":
		b, err := interoptest.AsSide(fresh.URL(), f.Name, flows, optionLabels(demonstrated))
		if err != nil {
			t.Logf("%s: not written: %v", format, err)
			return "not written"
		}
		write("recorded.side", b)
	}
	name := "zoo " + f.Name + " " + format
	out, err := zooCLIErr(t, home, nil, append([]string{"skill", "import", "--resolve", "--name", name, "--rows", sample}, files...)...)
	t.Logf("%s: skill import --resolve:\n%s", format, out)
	if err != nil {
		return "import refused"
	}
	var recs []string
	for _, m := range importedRec.FindAllStringSubmatch(out, -1) {
		recs = append(recs, m[1])
		zooCLI(t, home, nil, "recordings", "review", m[1])
	}
	var answers []string
	build := func() (string, error) {
		args := append([]string{"skill", "build", "--name", name, "--rows", sample}, recs...)
		if len(answers) > 0 {
			file := filepath.Join(dir, "answers.txt")
			if err := os.WriteFile(file, []byte(strings.Join(answers, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			args = append(args, "--confirm-file", file)
		}
		return zooCLIErr(t, home, nil, args...)
	}
	out, err = build()
	if asked := questionKeys(out); err != nil && len(asked) > 0 {
		more, open := personAnswers(asked, c, demonstrated)
		if len(open) > 0 {
			t.Logf("%s: skill build asks what the person did not answer for the demonstrations:\n%s", format, out)
			return "asks " + strings.Join(open, ",")
		}
		answers = append(answers, more...)
		out, err = build()
	}
	// The person reads the build's notes too: a success check it could
	// only guess (a flow that shows no page change) is answered with what
	// they saw when they filed a row, and the skill built again.
	if guesses := guessedSuccess.FindAllStringSubmatch(out, -1); err == nil && len(guesses) > 0 {
		if seen := successSeen(demonstrated); seen != "" {
			for _, g := range guesses {
				answers = append(answers, "success:"+g[1]+"="+seen)
			}
			out, err = build()
		}
	}
	id := regexp.MustCompile(`saved skill (\S+),`).FindStringSubmatch(out)
	if err != nil || id == nil {
		t.Logf("%s: skill build did not save:\n%s", format, out)
		return "build refused"
	}
	t.Logf("%s: skill:\n%s", format, zooCLI(t, home, nil, "skill", "show", id[1]))

	csv := e2e.WriteCSV(t, filepath.Join(dir, "rows.csv"), header, rows)
	reportPath := filepath.Join(dir, "report.json")
	out, _ = zooCLIErr(t, home, strings.NewReader("y\n"), "replay", id[1], "--rows", csv, "--report", reportPath, "--on-error", "skip")
	t.Logf("%s: replay:\n%s", format, lastLines(out, 30))
	got := e2e.ReadReport(t, reportPath)
	chk, cerr := zoo.Check(f.Name, header, rows, fresh.Records(f.Name))
	if cerr != nil {
		t.Fatal(cerr)
	}
	wrong, missing := map[int]bool{}, map[int]bool{}
	for _, p := range chk.Problems {
		t.Errorf("%s: stored wrong: %s", format, p)
		wrong[p.Row] = true
	}
	for _, p := range chk.Missing {
		missing[p.Row] = true
	}
	unknown := 0
	for _, r := range got {
		if r.Outcome == report.Unknown {
			unknown++
		}
		if r.Outcome == report.Committed && missing[r.N-1] {
			t.Errorf("%s: row %d reported committed, but the site does not hold it", format, r.N)
		}
		if r.Outcome != report.Committed {
			t.Logf("%s: row %d %s at step %d: %s", format, r.N, r.Outcome, r.Step, r.Reason)
		}
	}
	cell := fmt.Sprintf("%d/%d", len(rows)-len(chk.Missing)-len(wrong), len(rows))
	if len(wrong) > 0 {
		cell += fmt.Sprintf(" %d wrong", len(wrong))
	}
	if unknown > 0 { // stored, but nothing the skill checks proved it
		cell += fmt.Sprintf(" %d unknown", unknown)
	}
	t.Logf("%s: %s rows stored right", format, cell)
	return cell
}

// guessedSuccess finds the build's note on a success check it guessed.
var guessedSuccess = regexp.MustCompile(`its check \(url_changed\) is a guess: edit it, or answer success:(\d+)=`)

// successSeen is what the demonstrated skill's last destructive step
// checks, as the person answers it: its conditions that hold no row's
// value, joined by ";".
func successSeen(s *skills.Skill) string {
	var parts []string
	for _, st := range s.Steps {
		if !st.Destructive {
			continue
		}
		parts = parts[:0]
		for _, c := range st.Assert {
			switch {
			case strings.Contains(c.Value, "%"):
			case c.Value == "":
				parts = append(parts, c.Kind)
			default:
				parts = append(parts, c.Kind+":"+c.Value)
			}
		}
	}
	return strings.Join(parts, ";")
}

// siteOf is the address of the site a flow navigates to first.
func siteOf(t *testing.T, flow []byte) string {
	m := regexp.MustCompile(`"url": "(https?://[^/"]+)`).FindSubmatch(flow)
	if m == nil {
		t.Fatalf("the exported flow opens no page:\n%s", flow)
	}
	return string(m[1])
}

// optionLabels maps the option values of the skill's lists to their
// labels: Selenium IDE chooses an option by its label.
func optionLabels(s *skills.Skill) map[string]string {
	labels := map[string]string{}
	for _, st := range s.Steps {
		for _, o := range st.Options {
			if st.Action == "select" {
				labels[cmp.Or(o.Value, o.Label)] = o.Label
			}
		}
	}
	return labels
}

// personAnswers answers an imported draft's questions as the person who
// demonstrated the form: by the form's own answers where the question is
// the same, and for a column no step of the imports uses, with the field
// the demonstrated skill fills from it. open lists the questions the
// person never answered.
func personAnswers(asked []string, c zooCase, demonstrated *skills.Skill) (answers, open []string) {
	known := map[string]string{}
	for _, a := range c.answers {
		if k, _, ok := strings.Cut(a, "="); ok {
			known[k] = a
		}
	}
	for _, k := range asked {
		if a, ok := known[k]; ok {
			answers = append(answers, a)
			continue
		}
		if col, ok := strings.CutPrefix(k, "column:"); ok {
			if label := fieldOf(demonstrated, col); label != "" {
				answers = append(answers, k+"="+label)
				continue
			}
		}
		open = append(open, k)
	}
	return answers, open
}

// fieldOf is the label of the field the skill fills from column, "" for
// none.
func fieldOf(s *skills.Skill, column string) string {
	for _, p := range s.Parameters {
		if p.Column != column {
			continue
		}
		for _, st := range s.Steps {
			if strings.Contains(st.Value, "%"+p.Name+"%") && st.Label != "" {
				return st.Label
			}
		}
	}
	return ""
}
