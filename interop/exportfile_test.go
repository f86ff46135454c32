package interop

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reprise-dev/reprise/skills"
)

func TestExportFillsOneRowOrRefusesPastTheLast(t *testing.T) {
	s := &skills.Skill{Version: 1, Name: "new customer",
		Parameters: []skills.Parameter{{Name: "email", Column: "Email", Type: "email"}},
		DedupeKey:  []string{"email"},
		Steps: []skills.Step{
			{Action: "navigate", Value: "http://site.test/new"},
			{Action: "fill", Label: "Email", Value: "%email%", Selectors: []skills.Selector{{Strategy: "id", Value: "#email"}}},
		}}
	doc, err := skills.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(t.TempDir(), "rows.csv")
	if err := os.WriteFile(csv, []byte("Email\nada@example.org\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _, err := Export(ExportReprise, doc, "", 1, ""); err != nil || string(got) != string(doc) {
		t.Errorf("Export(reprise) = %q, %v; want the document as it is", got, err)
	}
	if got, _, err := Export(ExportChromeRecorder, doc, csv, 1, ""); err != nil || len(got) == 0 {
		t.Errorf("Export(chrome-recorder, row 1) = %q, %v; want a flow", got, err)
	}
	var past *RowsError
	if _, _, err := Export(ExportChromeRecorder, doc, csv, 2, ""); !errors.As(err, &past) || past.Row != 2 || past.Rows != 1 {
		t.Errorf("Export(chrome-recorder, row 2 of 1) = %v; want a *RowsError saying 1 data row", err)
	}
}
