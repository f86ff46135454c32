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
