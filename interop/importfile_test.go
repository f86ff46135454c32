package interop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestImportFile(t *testing.T) {
	path := filepath.Join("testdata", "side", "customer.side")
	flows, err := ImportFile(path)
	if err != nil || len(flows) == 0 {
		t.Fatalf("ImportFile(%q) = %d flows, %v; want every test of the project", path, len(flows), err)
	}
	for _, f := range flows {
		if f.File != path {
			t.Errorf("ImportFile(%q): a flow from %q; want it to name the file", path, f.File)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"title": "x"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ImportFile(bad); !strings.HasPrefix(fmt.Sprint(err), bad+": ") || !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("ImportFile(neither format) = %v; want ErrUnknownFormat naming the file", err)
	}
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, make([]byte, MaxFile+2), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ImportFile(big); err == nil || !strings.Contains(err.Error(), big+" is over") {
		t.Errorf("ImportFile(over MaxFile) = %v; want it refused, naming the file", err)
	}
	if _, err := ImportFile(filepath.Join(t.TempDir(), "none.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ImportFile(no file) = %v; want os.ErrNotExist", err)
	}
}

func TestWriteImported(t *testing.T) {
	cases := []struct {
		f    Flow
		want string
	}{
		{Flow{File: "a.json"}, "imported a.json as rec_1: 4 steps\n"},
		{Flow{File: "b.side", Title: "New \"customer\"", Notes: []string{"line 3: a Tab is absorbed"}},
			"imported b.side (\"New \\\"customer\\\"\") as rec_1: 4 steps\n  note: line 3: a Tab is absorbed\n"},
	}
	for _, c := range cases {
		var b strings.Builder
		c.f.WriteImported(&b, "rec_1", 4)
		if b.String() != c.want {
			t.Errorf("%+v.WriteImported = %q; want %q", c.f, b.String(), c.want)
		}
	}
}
