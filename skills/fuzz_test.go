package skills

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, and that whatever it accepts
// survives a round trip through Marshal unchanged.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/parse/*.yaml")
	for _, p := range seeds {
		f.Add(readFileF(f, p))
	}
	f.Add([]byte(base))
	f.Add([]byte(strings.Replace(base, "'%first_name%'", "'%%x %first_name%'", 1)))
	f.Add([]byte("a: &x [*x]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		y, err := Marshal(s)
		if err != nil {
			t.Fatalf("Marshal(Parse(%q)) = %v", data, err)
		}
		back, err := Parse(y)
		if err != nil {
			t.Fatalf("Parse(Marshal(s)) = %v\n%s", err, y)
		}
		if !reflect.DeepEqual(back, s) {
			t.Fatalf("Parse(Marshal(s)) = %+v; want %+v", back, s)
		}
	})
}

func readFileF(f *testing.F, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// FuzzAnswers checks that the person's answers never panic the parsers,
// and that what ParseConfirm accepts has only valid keys.
func FuzzAnswers(f *testing.F) {
	for _, s := range []string{
		"first_name=First Name\nplan/gold=Enterprise\n",
		"column:internal note=ignore\nfield:Fax=fax\nsuccess:9=text:Customer created; request_ok\n",
		"notes/optional=yes\n# a comment\n\n",
		"=x\nplan/=y\nsuccess:0=url_changed\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseConfirm(text)
		if err != nil {
			return
		}
		for k, v := range m {
			if !validKey(k) || v == "" {
				t.Fatalf("ParseConfirm(%q) kept %q=%q", text, k, v)
			}
			if strings.HasPrefix(k, successKey) {
				_, _ = ParseSuccess(v)
			}
		}
	})
}

// FuzzMapCell checks that a cell maps to one of the options, a boolean
// state, itself, or an error: never anything else.
func FuzzMapCell(f *testing.F) {
	f.Add("pro", "Pro", "p", false, false)
	f.Add("CÔTE", "Côte d'Ivoire", "CI", true, false)
	f.Add("yes", "", "", false, true)
	f.Fuzz(func(t *testing.T, cell, label, value string, optional, boolean bool) {
		p := Parameter{Name: "p", Type: "enum", Optional: optional}
		if boolean {
			p.Type = TypeBoolean
		}
		opts := []Option{{Label: label, Value: value}, {Label: "Other"}}
		got, err := p.MapCell(cell, opts)
		if err != nil {
			return
		}
		switch {
		case boolean && got != "true" && got != "false":
			t.Fatalf("MapCell(%q) = %q for a boolean", cell, got)
		case !boolean && got != "" && got != label && got != value && got != "Other":
			t.Fatalf("MapCell(%q) = %q; want an option's label", cell, got)
		case got == "" && !optional && !boolean:
			t.Fatalf("MapCell(%q) = empty for a required parameter", cell)
		}
	})
}
