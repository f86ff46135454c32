package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/skills/learn"
)

// buildSkillFromCLI is the skill commands as a person uses them, on a
// stopped recording of the scripted form: refused before a review; with one
// row every parameter is a question; answered, the skill saves, lists,
// shows, exports and validates against a CSV.
func buildSkillFromCLI(t *testing.T, home, id string) {
	t.Helper()
	dir := t.TempDir()
	sample := filepath.Join(dir, "customers.csv")
	if err := os.WriteFile(sample, []byte("First Name,Last Name,Email,Country\nJo,Bloggs,jo@example.org,Canada\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	build := func(extra ...string) (string, string, error) {
		return run(t, home, append([]string{"skill", "build", id, "--name", "New customer", "--rows", sample}, extra...)...)
	}
	if out, stderr, err := build(); err == nil || !strings.Contains(stderr, "REVIEW_REQUIRED") || !strings.Contains(stderr, "recordings review") {
		t.Fatalf("skill build before a review: %v\n%s%s; want REVIEW_REQUIRED saying how to review", err, out, stderr)
	}
	if out, stderr, err := run(t, home, "recordings", "review", id, "--remove", "x"); err == nil || !strings.Contains(stderr, "--remove") {
		t.Fatalf("review --remove x: %v\n%s%s; want a flag error", err, out, stderr)
	}
	if out, stderr, err := run(t, home, "recordings", "review", id); err != nil || !strings.Contains(out, "reviewed "+id) {
		t.Fatalf("recordings review: %v\n%s%s", err, out, stderr)
	}

	out, stderr, err := build()
	if err == nil || !strings.Contains(stderr, "not saved") {
		t.Fatalf("skill build from one row without answers: %v\n%s%s; want questions, not a save", err, out, stderr)
	}
	// Answer every question: a parameter whose label is a column reads it,
	// anything else is the same for every row.
	header := []string{"First Name", "Last Name", "Email", "Country"}
	var answers []string
	for _, m := range regexp.MustCompile(`(?m)^\d+\. \[([a-z0-9_]+)\]`).FindAllStringSubmatch(out, -1) {
		answer := m[1] + "=const"
		for _, h := range header {
			if learn.Key(h) == learn.Key(m[1]) {
				answer = m[1] + "=" + h
			}
		}
		answers = append(answers, "--confirm", answer)
	}
	if len(answers) < 8 {
		t.Fatalf("one row asked %d questions; want one for each of the form's values:\n%s", len(answers)/2, out)
	}
	out, stderr, err = build(answers...)
	if err != nil || !strings.Contains(out, "saved skill new-customer, revision") {
		t.Fatalf("skill build with answers: %v\n%s%s", err, out, stderr)
	}

	if out, _, err := run(t, home, "skill", "list"); err != nil || !strings.Contains(out, "new-customer") || !strings.Contains(out, "New customer") {
		t.Fatalf("skill list: %v\n%s", err, out)
	}
	if out, _, err := run(t, home, "skill", "show", "new-customer"); err != nil || !strings.Contains(out, "column: First Name") {
		t.Fatalf("skill show: %v\n%s", err, out)
	}
	file := filepath.Join(dir, "new-customer.yaml")
	if _, stderr, err := run(t, home, "skill", "export", "new-customer", "-o", file); err != nil {
		t.Fatalf("skill export: %v\n%s", err, stderr)
	}
	if out, stderr, err := run(t, home, "skill", "validate", file, "--rows", sample); err != nil || !strings.Contains(out, "ok") {
		t.Fatalf("skill validate: %v\n%s%s", err, out, stderr)
	}
	short := filepath.Join(dir, "short.csv")
	os.WriteFile(short, []byte("First Name,Email\n"), 0o600)
	if _, stderr, err := run(t, home, "skill", "validate", file, "--rows", short); err == nil || !strings.Contains(stderr, "Last Name") {
		t.Fatalf("validate against a CSV without a column: %v\n%s; want the missing column named", err, stderr)
	}
	broken := filepath.Join(dir, "broken.yaml")
	os.WriteFile(broken, []byte("version: 1\nname: x\nsteps:\n  - action: fly\n"), 0o600)
	if _, stderr, err := run(t, home, "skill", "validate", broken); err == nil || !strings.Contains(stderr, "line 4") {
		t.Fatalf("validate a broken skill: %v\n%s; want the line named", err, stderr)
	}
	if _, stderr, err := run(t, home, "skill", "show", "no-such-skill"); err == nil || !strings.Contains(stderr, "skill list") {
		t.Fatalf("show an unknown skill: %v\n%s", err, stderr)
	}
}
