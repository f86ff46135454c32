package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestPermissionCheck(t *testing.T) {
	for _, p := range []Permission{Accessibility, InputMonitoring, ScreenRecording} {
		ok := PermissionCheck(p, true)
		if !ok.OK || ok.Name != "permission: "+p.Name || ok.Fix != "" || !strings.HasPrefix(ok.Detail, "granted: ") {
			t.Errorf("PermissionCheck(%s, granted) = %+v; want ok, no fix", p.Name, ok)
		}
		no := PermissionCheck(p, false)
		where := "System Settings > Privacy & Security > " + p.Name
		if no.OK || !strings.Contains(no.Detail, where) || !strings.Contains(no.Detail, "restart reprise") ||
			!strings.Contains(no.Detail, p.Without) {
			t.Errorf("PermissionCheck(%s, not granted).Detail = %q; want where to grant it (%q), what is missing, and the restart",
				p.Name, no.Detail, where)
		}
		if !strings.Contains(no.Fix, "reprise doctor --request") || !strings.Contains(no.Fix, "restart reprise") {
			t.Errorf("PermissionCheck(%s, not granted).Fix = %q; want --request and the restart", p.Name, no.Fix)
		}
	}
}

// fakePerms are the three macOS permissions with states given by a test;
// asked records the prompts shown.
type fakePerms struct {
	granted map[string]bool // before any request
	grants  map[string]bool // what a prompt answers at once
	asked   []string
}

func (f *fakePerms) list() []permission {
	var out []permission
	for _, p := range []Permission{Accessibility, InputMonitoring, ScreenRecording} {
		out = append(out, permission{
			Permission: p,
			Granted:    func() bool { return f.granted[p.Name] },
			Request: func() bool {
				f.asked = append(f.asked, p.Name)
				return f.grants[p.Name]
			},
		})
	}
	return out
}

func TestRequestPermissions(t *testing.T) {
	for _, tc := range []struct {
		name      string
		granted   map[string]bool
		grants    map[string]bool
		wantAsked []string
		wantLines []string // one a permission, each contains its text
	}{
		{
			name:      "none granted: all three asked",
			wantAsked: []string{"Accessibility", "Input Monitoring", "Screen Recording"},
			wantLines: []string{
				"asked macOS to show its Accessibility prompt; allow reprise there (or in System Settings > Privacy & Security > Accessibility), then restart reprise",
				"asked macOS to show its Input Monitoring prompt",
				"asked macOS to show its Screen Recording prompt",
			},
		},
		{
			name:      "all granted: nothing asked",
			granted:   map[string]bool{"Accessibility": true, "Input Monitoring": true, "Screen Recording": true},
			wantLines: []string{"Accessibility is granted already", "Input Monitoring is granted already", "Screen Recording is granted already"},
		},
		{
			name:      "only the missing one asked",
			granted:   map[string]bool{"Accessibility": true, "Input Monitoring": true},
			wantAsked: []string{"Screen Recording"},
			wantLines: []string{"Accessibility is granted already", "Input Monitoring is granted already", "its Screen Recording prompt"},
		},
		{
			name:      "a prompt that grants at once",
			granted:   map[string]bool{"Input Monitoring": true, "Screen Recording": true},
			grants:    map[string]bool{"Accessibility": true},
			wantAsked: []string{"Accessibility"},
			wantLines: []string{"asked macOS for Accessibility; it is granted now", "Input Monitoring is granted already", "Screen Recording is granted already"},
		},
	} {
		f := &fakePerms{granted: tc.granted, grants: tc.grants}
		lines := requestPermissions("darwin", f.list())
		if !slices.Equal(f.asked, tc.wantAsked) {
			t.Errorf("%s: requestPermissions asked for %q; want %q", tc.name, f.asked, tc.wantAsked)
		}
		if len(lines) != len(tc.wantLines) {
			t.Errorf("%s: requestPermissions = %q; want %d lines", tc.name, lines, len(tc.wantLines))
			continue
		}
		for i, want := range tc.wantLines {
			if !strings.HasPrefix(lines[i], "--request: ") || !strings.Contains(lines[i], want) {
				t.Errorf("%s: line %d = %q; want it to say %q", tc.name, i, lines[i], want)
			}
		}
	}
}

func TestRequestWithoutPermissions(t *testing.T) {
	for _, goos := range []string{"linux", "windows"} {
		lines := requestPermissions(goos, nil)
		if len(lines) != 1 || !strings.Contains(lines[0], "nothing to ask for on "+goos) {
			t.Errorf("requestPermissions(%q, none) = %q; want one line: nothing to ask for", goos, lines)
		}
	}
	if got := platformPermissions(); runtime.GOOS != "darwin" && len(got) != 0 {
		t.Errorf("platformPermissions() off macOS = %d permissions; want none", len(got))
	}
}

// TestRun is `reprise doctor` with and without --request, as text and as
// JSON: the request's lines come first in text and go to stderr with JSON,
// and the permission checks read the states after the request.
func TestRun(t *testing.T) {
	probeOf := func(f *fakePerms) []Probe {
		var ps []Probe
		for _, p := range f.list() {
			ps = append(ps, permissionProbe(p))
		}
		return ps
	}
	for _, tc := range []struct {
		name       string
		flags      Flags
		goos       string
		mac        bool
		wantAsked  int
		wantStdout []string
		wantStderr string
	}{
		{"mac, text, no request", Flags{}, "darwin", true, 0,
			[]string{"reprise doctor (darwin)", "ok  permission: Accessibility", "no  permission: Input Monitoring",
				"System Settings > Privacy & Security > Screen Recording"}, ""},
		{"mac, text, request", Flags{Request: true}, "darwin", true, 2,
			[]string{"--request: Accessibility is granted already", "--request: asked macOS to show its Input Monitoring prompt",
				"ok  permission: Accessibility", "no  permission: Input Monitoring"}, ""},
		{"mac, json, request", Flags{Request: true, JSON: true}, "darwin", true, 2,
			nil, "--request: asked macOS to show its Screen Recording prompt"},
		{"linux, text, request", Flags{Request: true}, "linux", false, 0,
			[]string{"--request: nothing to ask for on linux", "reprise doctor (linux)"}, ""},
		{"linux, json, request", Flags{Request: true, JSON: true}, "linux", false, 0,
			nil, "--request: nothing to ask for on linux"},
	} {
		f := &fakePerms{granted: map[string]bool{"Accessibility": true}}
		var perms []permission
		var probes []Probe
		if tc.mac {
			perms, probes = f.list(), probeOf(f)
		}
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), tc.flags, tc.goos, perms, probes, &stdout, &stderr); err != nil {
			t.Fatalf("%s: run: %v", tc.name, err)
		}
		if len(f.asked) != tc.wantAsked {
			t.Errorf("%s: asked for %q; want %d prompts", tc.name, f.asked, tc.wantAsked)
		}
		for _, want := range tc.wantStdout {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%s: stdout lacks %q:\n%s", tc.name, want, stdout.String())
			}
		}
		if at := strings.Index(stdout.String(), "--request:"); at > strings.Index(stdout.String(), "reprise doctor (") {
			t.Errorf("%s: the request's lines come after the report:\n%s", tc.name, stdout.String())
		}
		if tc.wantStderr != "" && !strings.Contains(stderr.String(), tc.wantStderr) {
			t.Errorf("%s: stderr = %q; want %q", tc.name, stderr.String(), tc.wantStderr)
		}
		if tc.flags.JSON {
			var r Report
			if err := json.Unmarshal(stdout.Bytes(), &r); err != nil || r.OS != tc.goos {
				t.Errorf("%s: stdout is not the JSON report alone (%v):\n%s", tc.name, err, stdout.String())
			}
			if tc.mac && (len(r.Checks) != 3 || !r.Checks[0].OK || r.Checks[1].OK) {
				t.Errorf("%s: checks = %+v; want Accessibility ok, the other two not", tc.name, r.Checks)
			}
		} else if stderr.Len() != 0 {
			t.Errorf("%s: text mode wrote to stderr: %q", tc.name, stderr.String())
		}
		if !tc.flags.Request && strings.Contains(stdout.String()+stderr.String(), "--request:") {
			t.Errorf("%s: without --request, doctor said it asked:\n%s", tc.name, stdout.String())
		}
	}
}
