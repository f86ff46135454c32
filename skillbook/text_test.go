package skillbook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
)

func TestWriteList(t *testing.T) {
	var b strings.Builder
	saved := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	err := WriteList(&b, api.SkillListReply{Skills: []api.SkillListing{
		{SkillVersion: api.SkillVersion{ID: "new-customer", Revision: 3, Saved: saved}, Name: "new\x1bcustomer", Parameters: 2, Steps: 7},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if !strings.HasPrefix(got, "SKILL         REVISION  SAVED                NAME") || !strings.Contains(got, "new-customer  3         2026-01-02 03:04:05") {
		t.Errorf("WriteList = %q", got)
	}
	if strings.Contains(got, "\x1b") {
		t.Errorf("WriteList printed an escape: %q", got)
	}
}

func TestWriteNotesAndQuestions(t *testing.T) {
	var b strings.Builder
	WriteNotes(&b, []string{"absorbed a Tab"})
	WriteQuestions(&b, []ops.Question{{Parameter: "plan", Text: "Which option?"}, {Parameter: "email", Text: "Which column?"}})
	want := "note: absorbed a Tab\n1. [plan] Which option?\n2. [email] Which column?\n"
	if b.String() != want {
		t.Errorf("WriteNotes, WriteQuestions = %q; want %q", b.String(), want)
	}
}

func TestWriteDocument(t *testing.T) {
	b0, err := os.ReadFile(filepath.Join("..", "skills", "testdata", "parse", "valid.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b0)
	var b strings.Builder
	if err := WriteDocument(&b, doc); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.HasPrefix(got, "# first_name: column \"First Name\", text\n") || !strings.HasSuffix(got, doc) {
		t.Errorf("WriteDocument = %q; want comments in words, then the document", got)
	}
	b.Reset()
	if err := WriteDocument(&b, "steps: 3\n"); err != nil || b.String() != "steps: 3\n" {
		t.Errorf("WriteDocument(a document that does not parse) = %q, %v; want it alone", b.String(), err)
	}
}
