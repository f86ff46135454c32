package skills

import (
	"os"
	"reflect"
	"testing"
)

func roundTrip(t *testing.T, s *Skill) {
	t.Helper()
	y, err := Marshal(s)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := Parse(y)
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
