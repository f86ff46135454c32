package forms

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/internal/e2e"
	"github.com/reprise-dev/reprise/internal/zoo"
	"github.com/reprise-dev/reprise/interop/interoptest"
)

// ExportsEnv turns on the zoo's export matrix (make zoo-exports): each
// form's skill exported in every format and run with the real tool, on a
// fresh site, judged field by field as reprise's replay is.
const exportsEnv = "REPRISE_ZOO_EXPORTS"

// keepEnv names a directory where the matrix copies each export that fell
// short (the script, its CSV, the tool's results), to run again by hand.
const keepEnv = "REPRISE_ZOO_KEEP"

// exportFormats are the formats the matrix runs, in its table's order.
var exportFormats = []string{"playwright", "puppeteer-replay", "chrome-recorder"}

// exportCells runs the matrix for one form when exportsEnv is set, and
// returns one cell per format: what the site stored right of the rows
// (and the rows stored wrong), or "refused" when export named a step the
// format cannot express. A row stored wrong fails the test, as in
// reprise's replay; a row missing is the tool failing, which the table
// shows. want is how many rows the form takes.
func exportCells(t *testing.T, home, skillID string, site *zoo.Site, f *zoo.Form, header []string, rows [][]string, want int) []string {
	if os.Getenv(exportsEnv) == "" {
		return nil
	}
	chrome, err := chromium.FindHeadless()
	if err != nil {
		t.Skipf("SKIP: the export matrix needs Chromium: %v", err)
	}
	var cells []string
	for _, format := range exportFormats {
		cells = append(cells, exportCell(t, home, skillID, site, f, header, rows, want, format, chrome))
	}
	return cells
}

func exportCell(t *testing.T, home, skillID string, site *zoo.Site, f *zoo.Form, header []string, rows [][]string, want int, format, chrome string) string {
	dir := t.TempDir()
	csv := e2e.WriteCSV(t, filepath.Join(dir, "rows.csv"), header, rows)
	fresh := zoo.Serve()
	defer fresh.Close()
	// The export names the site the skill was built on; the run gets a
	// site of its own, where no row was filed yet.
	onFresh := func(path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(b), site.URL(), fresh.URL())), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	export := func(name string, extra ...string) (string, bool) {
		path := filepath.Join(dir, name)
		out, err := zooCLIErr(t, home, nil, append([]string{"skill", "export", skillID, "--format", format, "--rows", csv, "-o", path}, extra...)...)
		if err != nil {
			t.Logf("%s export: refused:\n%s", format, out)
			return "", false
		}
		onFresh(path)
		return path, true
	}
	var out string
	var err error
	switch format {
	case "playwright":
		if _, ok := export("zoo.spec.js"); !ok {
			return "refused"
		}
		out, err = interoptest.NeedNode(t, "@playwright/test", chrome).PlaywrightTest(t, dir)
	case "puppeteer-replay":
		script, ok := export("replay.js")
		if !ok {
			return "refused"
		}
		out, err = interoptest.NeedNode(t, "@puppeteer/replay", chrome).RunErr(t, dir, script)
	case "chrome-recorder":
		// One flow per row, all replayed by @puppeteer/replay's command line.
		node := interoptest.NeedNode(t, "puppeteer", chrome)
		args := []string{filepath.Join(node.Modules, "@puppeteer", "replay", "lib", "cli.js")}
		for i := range rows {
			path, ok := export(fmt.Sprintf("row%03d.json", i+1), "--row", fmt.Sprint(i+1))
			if !ok {
				return "refused"
			}
			args = append(args, path)
		}
		out, err = node.RunErr(t, dir, args...)
	}
	chk, cerr := zoo.Check(f.Name, header, rows, fresh.Records(f.Name))
	if cerr != nil {
		t.Fatal(cerr)
	}
	wrong := map[int]bool{} // a row's problems are one per field
	for _, p := range chk.Problems {
		t.Errorf("%s export: stored wrong: %s", format, p)
		wrong[p.Row] = true
	}
	right := len(rows) - len(chk.Missing) - len(wrong)
	if right < want || err != nil {
		t.Logf("%s export stored %d of the %d rows the form takes (exit %v):\n%s", format, right, want, err, lastLines(out, 30))
	}
	if keep := os.Getenv(keepEnv); keep != "" && (right < want || len(wrong) > 0) {
		to := filepath.Join(keep, f.Name, format)
		if err := os.CopyFS(to, os.DirFS(dir)); err != nil {
			t.Logf("%s export: not kept: %v", format, err)
		} else {
			t.Logf("%s export: kept in %s", format, to)
		}
	}
	cell := fmt.Sprintf("%d/%d", right, len(rows)) // reprise's own column says how many it filed
	if len(wrong) > 0 {
		cell += fmt.Sprintf(" %d wrong", len(wrong))
	}
	t.Logf("%s export: %s rows stored right", format, cell)
	return cell
}
