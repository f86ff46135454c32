package rows

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/skills"
)

func TestResolveFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.pdf", "b.pdf", "c.txt", "inv/1.pdf", "inv/2.pdf"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	big := filepath.Join(dir, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: over the limit without writing 50 MB.
	if err := f.Truncate(MaxUploadBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	at := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(dir, n))
		}
		return out
	}
	tests := []struct {
		cell, want string
		files      []string
	}{
		{cell: "a.pdf", files: at("a.pdf")},
		{cell: filepath.Join(dir, "b.pdf"), files: at("b.pdf")},
		{cell: "b.pdf\n a.pdf \n\n", files: at("b.pdf", "a.pdf")},
		{cell: "inv/*.pdf", files: at("inv/1.pdf", "inv/2.pdf")},
		{cell: "*.pdf\na.pdf", files: at("a.pdf", "b.pdf")},
		{cell: "missing.pdf", want: "file 1: does not exist"},
		{cell: "a.pdf\ninv", want: "file 2: is a folder, not a file"},
		{cell: "*.doc", want: "file 1: the pattern matches no file"},
		{cell: "big.bin", want: "file 1: is larger than 50 MB"},
		{cell: "[", want: "file 1: the pattern is malformed"},
		{cell: " \n", want: "names no file"},
	}
	for _, tt := range tests {
		files, err := ResolveFiles(tt.cell, dir)
		if tt.want != "" {
			if err == nil || err.Error() != tt.want {
				t.Errorf("ResolveFiles(%q) = %v; want %s", tt.cell, err, tt.want)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(files, tt.files) {
			t.Errorf("ResolveFiles(%q) = %v, %v; want %v", tt.cell, files, err, tt.files)
		}
	}
	if _, err := ResolveFiles("a.pdf", ""); err == nil || !strings.Contains(err.Error(), "needs the CSV's folder") {
		t.Errorf("relative path without a folder: %v", err)
	}
}

// TestFillResolvesFiles: a file cell is checked when the row is planned,
// relative to the CSV, and its error names the column, never the file.
func TestFillResolvesFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "receipt-4471.pdf"), []byte("%PDF"), 0o600); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(csv, []byte("Receipt\nreceipt-4471.pdf\nreceipt-9999.pdf\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &skills.Skill{Parameters: []skills.Parameter{{Name: "receipt", Column: "Receipt", Type: "file"}}}
	table, err := Open(csv, s)
	if err != nil {
		t.Fatal(err)
	}
	v, err := table.Rows[0].Fill(s)
	if err != nil || v["receipt"] != filepath.Join(dir, "receipt-4471.pdf") {
		t.Errorf("row 1 = %v, %v", v, err)
	}
	_, err = table.Rows[1].Fill(s)
	if err == nil || !strings.Contains(err.Error(), `column "Receipt", type file) file 1: does not exist`) || strings.Contains(err.Error(), "9999") {
		t.Errorf("row 2 = %v; want the missing file refused without its name", err)
	}
}
