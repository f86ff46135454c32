package report

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

var sample = []Row{
	{N: 1, Outcome: Committed, Step: 0, Via: "dom", Output: "/runs/r/row-1/downloads/invoice.pdf",
		Files: []string{"/runs/r/row-1/downloads/invoice.pdf", "/runs/r/row-1/final.png"}, Notes: []string{"accepted a confirm dialog"},
		Proofs: []string{"read back before step 5 (submit): 4 fields", "success: the site's signal after step 5"}},
	{N: 2, Outcome: Failed, Step: 3, Action: "fill", Reason: "selector \"#a, #b\" matched 0 elements;\nlabel \"Name\" matched 2", Via: "ax"},
	{N: 3, Outcome: Failed, Step: 1, Action: "submit", Reason: "=HYPERLINK(\"x\")", Via: ""},
	{N: 4, Outcome: Skipped, Step: 0, Reason: "''-already 'filed'"},
	{N: 5, Outcome: Unknown, Step: 5, Action: "submit", Reason: "'@x"},
	{N: 6, Outcome: DryRun, Step: 0, Reason: "'"},
	{N: 7, Outcome: Committed, Via: "model", Healed: []string{"step 3 (submit): found as button \"Send\"", "inserted before step 1: click button \"Accept\""},
		ModelCalls: 2, Tokens: 812},
}

// A report written before the proofs' column still reads.
func TestReadModelColumnsCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.csv")
	old := "row,outcome,step,action,reason,via,output,files,notes,healed,model_calls,tokens\n1,committed,,,,model,,,,step 1,2,30\n"
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil || len(got) != 1 || got[0].ModelCalls != 2 || got[0].Proofs != nil {
		t.Fatalf("Read(a report of 12 columns) = %+v, %v", got, err)
	}
}

// A report written before the model's columns still reads.
func TestReadOldCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.csv")
	old := "row,outcome,step,action,reason,via,output,files,notes\n1,committed,,,,dom,,,\n"
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil || len(got) != 1 || got[0].Outcome != Committed || got[0].Via != "dom" {
		t.Fatalf("Read(old report) = %+v, %v", got, err)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, ext := range []string{".csv", ".json", ".JSON"} {
		path := filepath.Join(t.TempDir(), "report"+ext)
		if err := Write(path, sample); err != nil {
			t.Fatalf("Write(%q) error: %v", path, err)
		}
		got, err := Read(path)
		if err != nil {
			t.Fatalf("Read(%q) error: %v", path, err)
		}
		if !reflect.DeepEqual(got, sample) {
			t.Errorf("Read(Write(%q)) =\n%+v\nwant\n%+v", path, got, sample)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
			t.Errorf("Write(%q) mode = %v; want 0600", path, fi.Mode().Perm())
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.tmp")); len(left) != 0 {
			t.Errorf("Write(%q) left temp files %v", path, left)
		}
	}
}

func TestCSVDefusesFormulas(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	if err := Write(path, sample); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	for _, want := range []string{`"'=HYPERLINK(""x"")"`, `'''-already 'filed'`, `''@x`, "\n1,committed,,,,dom,/runs/r/row-1/downloads/invoice.pdf,"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report CSV %q does not hold %q", b, want)
		}
	}
}

func TestJSONShape(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	if err := Write(path, sample); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	want := `"summary": {
    "committed": 2,
    "failed": 2,
    "skipped": 1,
    "unknown": 1
  },`
	if !strings.Contains(string(b), want) {
		t.Errorf("report JSON %s does not hold %s", b, want)
	}
	empty := filepath.Join(t.TempDir(), "e.json")
	if err := Write(empty, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(empty); !strings.Contains(string(b), `"rows": []`) {
		t.Errorf("empty report JSON = %s; want \"rows\": []", b)
	}
}

func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"report.txt", "report", "report.csv.bak"} {
		if err := Write(filepath.Join(dir, name), sample); !errors.Is(err, ErrFormat) {
			t.Errorf("Write(%q) = %v; want %v", name, err, ErrFormat)
		}
	}
	if err := Write(filepath.Join(dir, "no", "such", "dir", "r.csv"), sample); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Write(missing dir) = %v; want %v", err, os.ErrNotExist)
	}
	// A directory where the file should go: the rename fails and the temp file goes.
	target := filepath.Join(dir, "taken.json")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(target, sample); err == nil {
		t.Errorf("Write(%q, a directory) = nil; want an error", target)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) != 0 {
		t.Errorf("failed Write left temp files %v", left)
	}
	bad := []Row{{N: 9, Outcome: "done"}}
	if err := Write(filepath.Join(dir, "r.csv"), bad); err == nil || !strings.Contains(err.Error(), "row 9") {
		t.Errorf("Write(outcome %q) = %v; want an error naming row 9", "done", err)
	}
}

func TestSummary(t *testing.T) {
	c, f, s, u := Summary(sample)
	if c != 2 || f != 2 || s != 1 || u != 1 {
		t.Errorf("Summary() = %d, %d, %d, %d; want 2, 2, 1, 1", c, f, s, u)
	}
}
