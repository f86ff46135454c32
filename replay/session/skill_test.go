package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reprise-dev/reprise/api"
)

// kept is a skill book holding one skill, by its id or name.
type kept map[string]api.SkillGetReply

func (k kept) Skill(_ context.Context, ref string, _ uint64) (api.SkillGetReply, error) {
	r, ok := k[ref]
	if !ok {
		return r, errors.New("no such skill")
	}
	return r, nil
}

func TestLoadSkill(t *testing.T) {
	doc := "version: 1\nname: New Customer\nsteps:\n  - action: navigate\n    value: https://app.example.test/\n    floor: {}\n"
	file := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	book := kept{
		"new-customer": {SkillVersion: api.SkillVersion{ID: "new-customer"}, YAML: doc},
		"broken":       {SkillVersion: api.SkillVersion{ID: "broken"}, YAML: "steps: 3\n"},
	}
	got, err := LoadSkill(context.Background(), book, file)
	if err != nil || got.ID != "new-customer" || got.File != file || string(got.Doc) != doc || got.Skill.Name != "New Customer" {
		t.Errorf("LoadSkill(a file) = %+v, %v; want the file's skill, its id from its name, and the file", got, err)
	}
	got, err = LoadSkill(context.Background(), book, "new-customer")
	if err != nil || got.ID != "new-customer" || got.File != "" || got.Skill == nil {
		t.Errorf("LoadSkill(a kept skill) = %+v, %v; want the kept skill and no file", got, err)
	}
	if _, err := LoadSkill(context.Background(), book, "broken"); err == nil {
		t.Error("LoadSkill(a kept skill that does not parse) = nil error")
	}
	if _, err := LoadSkill(context.Background(), book, "missing"); err == nil {
		t.Error("LoadSkill(a skill neither kept nor a file) = nil error")
	}
}
