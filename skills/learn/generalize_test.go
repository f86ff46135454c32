package learn

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/generalize")

// TestGeneralize runs every case in testdata/generalize/<case>: rec*.json
// recordings, an optional sample.csv and confirm.txt, and goldens:
// want.yaml (the skill, or the draft when questions stay open),
// want_questions.txt, want_notes.txt and want_error.txt. A golden that is
// absent means "none": no questions, no notes, no error.
func TestGeneralize(t *testing.T) {
	dirs, err := filepath.Glob("testdata/generalize/*")
	if err != nil || len(dirs) < 10 {
		t.Fatalf("want at least 10 cases in testdata/generalize, found %d (%v)", len(dirs), err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			recs, opts := loadCase(t, dir)
			got := map[string]string{}
			d, err := Generalize(recs, opts)
			if err == nil {
				got["want_questions.txt"] = questionLines(d.Questions)
				got["want_notes.txt"] = lines(d.Notes)
				var s *skills.Skill
				s, err = d.Final()
				if s == nil {
					s = d.Skill
				} else {
					roundTrip(t, s)
				}
				y, merr := skills.Marshal(s)
				if merr != nil {
					t.Fatalf("Marshal: %v", merr)
				}
				got["want.yaml"] = string(y)
			}
			if err != nil {
				got["want_error.txt"] = err.Error() + "\n"
			}
			for _, name := range []string{"want.yaml", "want_questions.txt", "want_notes.txt", "want_error.txt"} {
				golden(t, filepath.Join(dir, name), got[name])
			}
		})
	}
}

func loadCase(t *testing.T, dir string) ([]events.Recording, Options) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "rec*.json"))
	var recs []events.Recording
	for _, f := range files {
		var r events.Recording
		if err := json.Unmarshal(readFile(t, f), &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		recs = append(recs, r)
	}
	opts := Options{Name: strings.ReplaceAll(filepath.Base(dir), "_", " ")}
	if b, err := os.ReadFile(filepath.Join(dir, "sample.csv")); err == nil {
		rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
		if err != nil || len(rows) == 0 {
			t.Fatalf("sample.csv: %v", err)
		}
		opts.Header, opts.SampleRows = rows[0], rows[1:]
	}
	if b, err := os.ReadFile(filepath.Join(dir, "confirm.txt")); err == nil {
		c, err := ParseConfirm(string(b))
		if err != nil {
			t.Fatalf("confirm.txt: %v", err)
		}
		opts.Confirm = c
	}
	return recs, opts
}

// golden compares got with the file, or rewrites it under -update. An
// empty got means the file must not exist.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if got == "" {
			os.Remove(path)
			return
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run go test -update after checking):\n--- got\n%s\n--- want\n%s", filepath.Base(path), got, want)
	}
}

func questionLines(qs []Question) string {
	var out []string
	for _, q := range qs {
		out = append(out, fmt.Sprintf("%s %s: %s", q.Kind, q.Parameter, q.Text))
	}
	return lines(out)
}

func lines(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return strings.Join(xs, "\n") + "\n"
}

func roundTrip(t *testing.T, s *skills.Skill) {
	t.Helper()
	y, err := skills.Marshal(s)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := skills.Parse(y)
	if err != nil {
		t.Fatalf("Parse(Marshal(s)): %v\n%s", err, y)
	}
	if !reflect.DeepEqual(back, s) {
		t.Errorf("Parse(Marshal(s)) = %+v; want %+v", back, s)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
