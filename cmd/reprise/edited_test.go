package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editedSkillDoc is the doc that shows testdata/edited-skill.yaml, from
// the repository's root.
const editedSkillDoc = "docs/skills.md"

// TestHandEditedSkillReplays files rows with the skill docs/skills.md shows
// a person writing by hand: every element named by a target, an expect
// before the save, a when on a step. Each row is filed once with its
// values, and the report says the save was found by its target.
func TestHandEditedSkillReplays(t *testing.T) {
	t.Parallel()
	tmpl, err := os.ReadFile(filepath.Join("testdata", "edited-skill.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(editedSkillDoc)))
	if err != nil {
		t.Fatal(err)
	}
	body := string(tmpl[strings.Index(string(tmpl), "version: 1"):])
	if !strings.Contains(string(doc), body) {
		t.Fatalf("%s does not show testdata/edited-skill.yaml as it is (from `version: 1` on): show the skill this test replays", editedSkillDoc)
	}
	r := newReplayRig(t)
	r.skill = r.write("edited-skill.yaml", r.site.skill(string(tmpl)))
	sample, _ := r.customers("sample.csv", 2)
	if out, stderr, err := r.replay(t, "--rows", sample, "--dry-run"); err != nil || r.site.postCount() != 0 {
		t.Fatalf("dry run: %v\n%s%s (posts %d)", err, out, stderr, r.site.postCount())
	}
	path, rows := r.customers("customers.csv", 5)
	report := filepath.Join(r.dir, "report.json")
	out, stderr, err := r.replay(t, "--rows", path, "--yes", "--report", report)
	if err != nil || !strings.Contains(out, "5 committed, 0 failed, 0 skipped, 0 unknown") {
		t.Fatalf("replay: %v\n%s%s", err, out, stderr)
	}
	for i, row := range rows {
		n, got := r.site.count(row[1])
		if n != 1 {
			t.Errorf("row %d stored %d times; want once", i+1, n)
			continue
		}
		want := map[string]string{"first_name": row[0], "email": row[1], "company": row[2], "country": row[3], "notes": row[4]}
		for k, v := range want {
			if strings.ReplaceAll(got[k], "\r\n", "\n") != v {
				t.Errorf("row %d %s stored %q; want %q", i+1, k, got[k], v)
			}
		}
	}
	var rep struct {
		Rows []struct {
			Outcome string `json:"outcome"`
			Via     string `json:"via"`
		} `json:"rows"`
	}
	b, _ := os.ReadFile(report)
	if err := json.Unmarshal(b, &rep); err != nil || len(rep.Rows) != 5 {
		t.Fatalf("report: %v\n%s", err, b)
	}
	for i, row := range rep.Rows {
		if row.Outcome != "committed" || row.Via != "target" {
			t.Errorf("report row %d = %+v; want committed, its save found by its target", i+1, row)
		}
	}
}

// TestSkillFilesInAndOutOfTheBook: a skill file goes into the skill book
// through the same validation as a built skill (issue 35): as revision 1
// of a new skill, then, edited, as a proposal the person sees and accepts
// as revision 2, never saved over the kept skill silently. Export reads a
// skill file as it reads a kept skill.
func TestSkillFilesInAndOutOfTheBook(t *testing.T) {
	t.Parallel()
	tmpl, err := os.ReadFile(filepath.Join("testdata", "edited-skill.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	home, dir := t.TempDir(), t.TempDir()
	startDaemonProcess(t, home)
	write := func(name, doc string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := strings.ReplaceAll(string(tmpl), "{{base}}", "http://127.0.0.1:9")
	edited := strings.Replace(first, "expect: R-2", "expect: R-3", 1)
	edited = strings.Replace(edited, "value: R-2", "value: R-3", 1)
	const id = "add-customer-by-hand"
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"skill", "import", write("first.yaml", first)}, "saved skill " + id + ", revision 1, from"},
		{[]string{"skill", "import", write("edited.yml", edited)}, "proposed as the next revision of skill " + id + " (made from revision 1)"},
		{[]string{"skill", "show", id}, "value: R-2"},
		{[]string{"skill", "show", id, "--pending"}, "value: R-3"},
		{[]string{"skill", "accept", id}, "saved as revision 2 of skill " + id},
		{[]string{"skill", "show", id}, "value: R-3"},
		{[]string{"skill", "show", id, "--revision", "1"}, "value: R-2"},
		{[]string{"skill", "export", filepath.Join(dir, "edited.yml")}, edited},
	}
	for _, s := range steps {
		out, stderr, err := run(t, home, s.args...)
		if err != nil || !strings.Contains(out, s.want) {
			t.Fatalf("reprise %s: %v\n%s%s\nwant %q", strings.Join(s.args, " "), err, out, stderr, s.want)
		}
	}
	// A file that does not validate is refused, and nothing is proposed.
	bad := strings.Replace(first, "read_back: {kind: value, expect: \"%email%\"}", "read_back: {kind: value, expect: \"%no_such%\"}", 1)
	out, stderr, err := run(t, home, "skill", "import", write("bad.yaml", bad))
	if err == nil || !strings.Contains(stderr, "bad.yaml: line 24: steps[3].read_back.expect: placeholder %no_such% names no declared parameter") {
		t.Errorf("import of a skill that does not validate: %v\n%s%s", err, out, stderr)
	}
	if _, stderr, err := run(t, home, "skill", "show", id, "--pending"); err == nil || !strings.Contains(stderr, "no proposed revision") {
		t.Errorf("a refused import left a proposal: %v %s", err, stderr)
	}
}
