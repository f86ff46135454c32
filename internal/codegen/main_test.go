package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedUpToDate holds every generated file to its source: edit
// ops/errors.json or package events, then run go generate ./ops.
func TestGeneratedUpToDate(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	out, err := outputs(root)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range out {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is out of date (%v): run go generate ./ops", path, err)
		}
	}
}

// TestLoadRefuses checks the registry's own rules: a code once, in its
// group's casing, with a meaning, and one Go name per code.
func TestLoadRefuses(t *testing.T) {
	for _, c := range []struct{ name, json, want string }{
		{"twice", `{"groups":[{"name":"a","title":"A","codes":[{"code":"X","meaning":"m"},{"code":"X","meaning":"m"}]}]}`, "twice"},
		{"casing", `{"groups":[{"name":"a","title":"A","codes":[{"code":"not_found","meaning":"m"}]}]}`, "casing"},
		{"design casing", `{"groups":[{"name":"a","title":"A","design_casing":true,"codes":[{"code":"NOT_FOUND","meaning":"m"}]}]}`, "casing"},
		{"no meaning", `{"groups":[{"name":"a","title":"A","codes":[{"code":"X","meaning":" "}]}]}`, "no meaning"},
		{"one Go name", `{"groups":[{"name":"a","title":"A","codes":[{"code":"SCRIPT_BUSY","meaning":"m"}]},{"name":"script","title":"S","design_casing":true,"codes":[{"code":"Busy","meaning":"m"}]}]}`, "both CodeScriptBusy"},
		{"unknown field", `{"groups":[{"name":"a","title":"A","codes":[{"code":"X","meaning":"m","retries":true}]}]}`, "unknown field"},
		{"no title", `{"groups":[{"name":"a","codes":[]}]}`, "title"},
		{"not JSON", `{"groups":`, "errors.json"},
	} {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "ops"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, registryPath), []byte(c.json), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := load(root)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("load(%s) = %v; want an error naming %q", c.name, err, c.want)
		}
	}
}

func TestGoNames(t *testing.T) {
	for _, c := range []struct {
		g          Group
		code, want string
	}{
		{Group{Name: "wire"}, "RECORDING_NOT_FOUND", "CodeRecordingNotFound"},
		{Group{Name: "script", DesignCasing: true}, "Busy", "CodeScriptBusy"},
	} {
		if got := goName(c.g, Code{Code: c.code}); got != c.want {
			t.Errorf("goName(%s) = %s; want %s", c.code, got, c.want)
		}
	}
	if got := pkgGoName(Group{Name: "selector"}, Code{Code: "SELECTOR_NOT_FOUND"}); got != "CodeNotFound" {
		t.Errorf("pkgGoName(SELECTOR_NOT_FOUND) = %s; want CodeNotFound", got)
	}
}
