package scripted

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoad feeds load arbitrary files: it must never panic, what it accepts
// must validate, and what it refuses it must say without the input's bytes
// beyond the file's name.
func FuzzLoad(f *testing.F) {
	seeds, err := filepath.Glob("testdata/malformed/*")
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range append(seeds, form) {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("\n\n{}\n"))
	f.Add([]byte(`{"steps": []}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(dir, "fuzz.json")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		steps, err := load(path)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "trajectory file "+path+" ") {
				t.Errorf("load error %q does not name the file first", err)
			}
			return
		}
		if len(steps) == 0 {
			t.Errorf("load accepted a file with no steps")
		}
		for i := range steps {
			if err := steps[i].Validate(); err != nil {
				t.Errorf("load accepted step %d that fails Validate: %v", i, err)
			}
		}
	})
}
