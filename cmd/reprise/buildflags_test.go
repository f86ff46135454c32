package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildFlagsRequest: answers come from --confirm and --confirm-file,
// a file or standard input ("-"), and a bad one names the flag it came by.
func TestBuildFlagsRequest(t *testing.T) {
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.txt")
	if err := os.WriteFile(answers, []byte("# from a file\ncompany=const\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		flags buildFlags
		stdin string
		want  map[string]string
		err   string
	}{
		{"flags and a file", buildFlags{confirm: []string{"first_name=First Name"}, confirmFile: answers},
			"", map[string]string{"first_name": "First Name", "company": "const"}, ""},
		{"stdin", buildFlags{confirmFile: "-"}, "plan/gold=Enterprise\n", map[string]string{"plan/gold": "Enterprise"}, ""},
		{"a key twice", buildFlags{confirm: []string{"company=const"}, confirmFile: answers}, "", nil, "--confirm: "},
		{"no such file", buildFlags{confirmFile: filepath.Join(dir, "missing")}, "", nil, "--confirm-file: "},
		{"no = sign", buildFlags{confirm: []string{"company"}}, "", nil, "--confirm: "},
		{"no such sample", buildFlags{rows: filepath.Join(dir, "missing.csv")}, "", nil, "--rows: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := tc.flags.request(strings.NewReader(tc.stdin), []string{"rec_a"})
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Errorf("request() = %v; want an error starting %q", err, tc.err)
				}
				return
			}
			if err != nil || len(req.Confirm) != len(tc.want) || len(req.Recordings) != 1 {
				t.Fatalf("request() = %+v, %v; want answers %v", req, err, tc.want)
			}
			for k, v := range tc.want {
				if req.Confirm[k] != v {
					t.Errorf("answer %s = %q; want %q", k, req.Confirm[k], v)
				}
			}
		})
	}
}
