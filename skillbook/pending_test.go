package skillbook

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/ops"
)

const pendingSkill = `version: 1
name: plan
parameters:
  - {name: email, column: Email, type: email}
dedupe_key: [email]
steps:
  - action: fill
    label: Email
    value: "%email%"
`

// TestPending: a proposed revision is kept beside the skill, not in its
// history nor in the list, until accepted; one made from an older
// revision is refused; malformed requests are refused.
func TestPending(t *testing.T) {
	ctx := context.Background()
	nc, book := servedBook(t)
	rev, err := book.Save(ctx, "plan", []byte(pendingSkill))
	if err != nil {
		t.Fatal(err)
	}
	ask := func(req api.SkillPendingRequest) (api.SkillPendingReply, error) {
		var r api.SkillPendingReply
		err := ops.AskJSON(ctx, nc, events.LocalSkillPending, req, &r)
		return r, err
	}
	if _, err := ask(api.SkillPendingRequest{SkillID: "plan", Op: api.SkillPendingGet}); err == nil || !strings.Contains(err.Error(), "no proposed revision") {
		t.Errorf("get before any proposal: %v", err)
	}
	healed := strings.Replace(pendingSkill, "label: Email", "label: E-mail address", 1)
	if _, err := ask(api.SkillPendingRequest{SkillID: "plan", Op: api.SkillPendingPropose, Base: rev, YAML: healed}); err != nil {
		t.Fatal(err)
	}
	if got, err := ask(api.SkillPendingRequest{SkillID: "plan", Op: api.SkillPendingGet}); err != nil || got.YAML != healed || got.Base != rev {
		t.Fatalf("get = %+v, %v", got, err)
	}
	if l, _ := book.List(ctx); len(l) != 1 || l[0].Revision != rev {
		t.Errorf("list = %+v; want the skill alone, as saved", l)
	}
	if cur, _ := book.Get(ctx, "plan", 0); string(cur.Doc) != pendingSkill {
		t.Error("a proposal changed the skill before it was accepted")
	}
	got, err := ask(api.SkillPendingRequest{SkillID: "plan", Op: api.SkillPendingAccept})
	if err != nil || got.Revision <= rev {
		t.Fatalf("accept = %+v, %v", got, err)
	}
	if cur, _ := book.Get(ctx, "plan", 0); string(cur.Doc) != healed {
		t.Error("the accepted revision is not the newest")
	}
	if _, err := book.Pending(ctx, "plan"); !errors.Is(err, ErrNoPending) {
		t.Errorf("the proposal outlived its acceptance: %v", err)
	}
	// A proposal made from an older revision would undo what came after.
	if err := book.Propose(ctx, "plan", rev, []byte(pendingSkill)); err != nil {
		t.Fatal(err)
	}
	if _, err := ask(api.SkillPendingRequest{SkillID: "plan", Op: api.SkillPendingAccept}); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("accept a stale proposal: %v; want a refusal", err)
	}
	if _, err := ask(api.SkillPendingRequest{SkillID: "plan", Op: api.SkillPendingDiscard}); err != nil {
		t.Fatal(err)
	}
	for _, req := range []api.SkillPendingRequest{
		{SkillID: "plan", Op: "merge"},
		{SkillID: "plan", Op: api.SkillPendingPropose, YAML: "version: 1\nname: x\n"},
		{SkillID: "plan", Op: api.SkillPendingPropose, YAML: "{"},
	} {
		var e *ops.Error
		if _, err := ask(req); !errors.As(err, &e) || e.Code != ops.CodeInvalidRequest {
			t.Errorf("%+v: %v; want INVALID_REQUEST", req, err)
		}
	}
	var e *ops.Error
	if _, err := ask(api.SkillPendingRequest{SkillID: "nope", Op: api.SkillPendingGet}); !errors.As(err, &e) || e.Code != ops.CodeSkillNotFound || strings.Contains(e.Message, "reprise ") {
		t.Errorf("pending of no skill: %v; want SKILL_NOT_FOUND, naming no command", err)
	}
}

// TestImportSkillFile: an imported skill file is a new skill's revision 1,
// or a proposal for the kept skill of its name; one named otherwise than
// the id it is sent under, or that does not validate, is refused.
func TestImportSkillFile(t *testing.T) {
	ctx := context.Background()
	nc, book := servedBook(t)
	imp := func(id, doc string) (api.SkillPendingReply, error) {
		var r api.SkillPendingReply
		err := ops.AskJSON(ctx, nc, events.LocalSkillPending, api.SkillPendingRequest{SkillID: id, Op: api.SkillPendingImport, YAML: doc}, &r)
		return r, err
	}
	if r, err := imp("plan", pendingSkill); err != nil || r.Revision != 1 || r.Base != 0 {
		t.Fatalf("import of a new skill = %+v, %v; want revision 1", r, err)
	}
	edited := strings.Replace(pendingSkill, "label: Email", "label: E-mail", 1)
	if r, err := imp("plan", edited); err != nil || r.Revision != 0 || r.Base != 1 {
		t.Fatalf("import of a kept skill = %+v, %v; want a proposal made from revision 1", r, err)
	}
	if cur, _ := book.Get(ctx, "plan", 0); string(cur.Doc) != pendingSkill || cur.Revision != 1 {
		t.Errorf("an import changed the kept skill: revision %d", cur.Revision)
	}
	if p, err := book.Pending(ctx, "plan"); err != nil || string(p.Doc) != edited || p.Base != 1 {
		t.Errorf("pending = %+v, %v", p, err)
	}
	for _, tc := range []struct{ id, doc, want string }{
		{"other", pendingSkill, `named "plan", which is not skill "other"`},
		{"plan", "version: 1\nname: plan\nsteps: []\n", "a skill needs at least one step"},
		{"plan", "{", "is not a skill"},
	} {
		if _, err := imp(tc.id, tc.doc); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("import %q as %s: %v; want %q", tc.doc, tc.id, err, tc.want)
		}
	}
}

// servedBook is a skill book on a test server, with its service answering.
func servedBook(t *testing.T) (*nats.Conn, *Book) {
	t.Helper()
	_, nc, js := natstest.Start(t, "m_test")
	book, err := Open(context.Background(), js, testKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := (&Service{Book: book}).Serve(nc); err != nil {
		t.Fatal(err)
	}
	return nc, book
}
