package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportedEscapesAreNotPrinted: a flow written by a hostile program
// puts terminal escapes (a title rewrite, a screen clear, a bidi override)
// into a label and a value; `recordings show` prints them escaped, so what
// the person reads is what the recording holds (issue 32).
func TestImportedEscapesAreNotPrinted(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), t.TempDir()
	startDaemonProcess(t, home)
	const label = "E\x1b]0;pwned\x07mail\x1b[2J"
	flow := `{"title": "t", "steps": [
		{"type": "navigate", "url": "https://example.test/new"},
		{"type": "change", "value": "ada\u202eevil", "selectors": [["aria/` + strings.NewReplacer("\x1b", `\u001b`, "\x07", `\u0007`).Replace(label) + `"]], "target": "main"},
		{"type": "click", "selectors": [["aria/Save"]], "target": "main"}]}`
	path := filepath.Join(dir, "flow.json")
	if err := os.WriteFile(path, []byte(flow), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := run(t, home, "skill", "import", "--name", "escapes", path)
	m := importedPattern.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("skill import named no recording: %v\n%s%s", err, out, stderr)
	}
	shown, stderr, err := run(t, home, "recordings", "show", m[1])
	if err != nil {
		t.Fatalf("recordings show: %v\n%s", err, stderr)
	}
	if strings.ContainsAny(shown, "\x1b\x07\u202e") {
		t.Errorf("recordings show printed a terminal control raw:\n%q", shown)
	}
	if !strings.Contains(shown, `E\x1b]0;pwned\x07mail\x1b[2J`) {
		t.Errorf("recordings show does not print the label escaped:\n%q", shown)
	}
}
