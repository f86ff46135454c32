package interop

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecorderCLIFilesEachRow exports one Recorder flow per row of the CSV
// and replays them all with @puppeteer/replay's own command line, as a
// person who exported them would (issue 35): every row stored once, with
// the values reprise files.
func TestRecorderCLIFilesEachRow(t *testing.T) {
	tools := needNode(t, "puppeteer")
	site := newFormSite(t)
	b, err := os.ReadFile(filepath.Join("testdata", "export", "customer.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc := []byte(strings.ReplaceAll(string(b), "{{base}}", site.URL))
	dir := exportDir(t, map[string][]byte{})
	var flows []string
	for row := 1; row <= len(exportRows); row++ {
		flow, _, err := Export(ExportChromeRecorder, doc, filepath.Join(dir, "customers.csv"), row, "")
		if err != nil {
			t.Fatalf("export row %d: %v", row, err)
		}
		name := fmt.Sprintf("row%d.json", row)
		if err := os.WriteFile(filepath.Join(dir, name), flow, 0o600); err != nil {
			t.Fatal(err)
		}
		flows = append(flows, name)
	}
	out := tools.Run(t, dir, append([]string{filepath.Join(tools.Modules, "@puppeteer", "replay", "lib", "cli.js")}, flows...)...)
	if diff := rowsEqual(site.Filed(), exportRows); diff != "" {
		t.Fatalf("after the Recorder's command line ran the flows:\n%s\nits output:\n%s", diff, out)
	}
}
