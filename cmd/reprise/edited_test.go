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
