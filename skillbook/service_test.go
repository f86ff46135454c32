package skillbook

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/ops"
)

// fixture reads one of the skills package's generalization cases.
func fixture(t *testing.T, name string) events.Recording {
	t.Helper()
	b, err := os.ReadFile("../skills/learn/testdata/generalize/select_checkbox/" + name)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := events.DecodeRecordingJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	return *rec
}

type audited struct{ kinds []string }

func (a *audited) Append(_ context.Context, kind string, fields map[string]string) error {
	a.kinds = append(a.kinds, kind)
	return nil
}

func TestService(t *testing.T) {
	_, nc, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	book, err := Open(ctx, js, testKey)
	if err != nil {
		t.Fatal(err)
	}
	recs := map[string]events.Recording{"rec_a": fixture(t, "rec1.json"), "rec_b": fixture(t, "rec2.json")}
	aud := &audited{}
	svc := &Service{Book: book, Audit: aud, Reviewed: func(_ context.Context, id string) (*events.Recording, error) {
		if r, ok := recs[id]; ok {
			return &r, nil
		}
		return nil, ops.Errorf(ops.CodeReviewRequired, "recording %s has not been reviewed", id)
	}}
	if err := svc.Serve(nc); err != nil {
		t.Fatal(err)
	}
	// ask returns the service's refusal, as the one envelope's reader
	// reads it; the body is decoded into reply either way.
	ask := func(subject, body string, reply any) *ops.Error {
		t.Helper()
		m, err := nc.Request(subject, []byte(body), 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(m.Data, reply); err != nil {
			t.Fatalf("%s answered %s", subject, m.Data)
		}
		var e *ops.Error
		if err := ops.ReplyError(m); err != nil && !errors.As(err, &e) {
			t.Fatalf("%s refused with %T", subject, err)
		}
		return e
	}

	for _, tc := range []struct{ body, code string }{
		{`{`, ops.CodeInvalidRequest},
		{`{"name":"x","recordings":["rec_a"],"extra":1}`, ops.CodeInvalidRequest},
		{`{"name":"x","recordings":[]}`, ops.CodeInvalidRequest},
		{`{"name":"","recordings":["rec_a","rec_b"]}`, ops.CodeInvalidRequest},
		{`{"name":"x","recordings":["rec_a","rec_unreviewed"]}`, ops.CodeReviewRequired},
	} {
		var r api.SkillBuildReply
		e := ask(events.LocalSkillBuild, tc.body, &r)
		if r.Error == nil || r.Error.Code != tc.code || r.Saved || e == nil || *e != *r.Error {
			t.Errorf("build %s = %+v, refusal %v; want %s", tc.body, r, e, tc.code)
		}
	}

	var built api.SkillBuildReply
	if e := ask(events.LocalSkillBuild, `{"name":"Order a plan","recordings":["rec_a","rec_b"]}`, &built); e != nil || built.Error != nil || !built.Saved || built.SkillID != "order-a-plan" || built.Revision == 0 {
		t.Fatalf("build = %+v", built)
	}
	if len(aud.kinds) != 1 || aud.kinds[0] != "skill.built" {
		t.Errorf("audit entries %v; want one skill.built", aud.kinds)
	}
	var got api.SkillGetReply
	if e := ask(events.LocalSkillGet, `{"skill_id":"order-a-plan"}`, &got); e != nil || got.YAML != built.YAML || got.Revision != built.Revision {
		t.Fatalf("get = %+v", got)
	}
	for body, code := range map[string]string{`{"skill_id":"nope"}`: ops.CodeSkillNotFound, `{"skill_id":"../x"}`: ops.CodeSkillNotFound,
		`{"skill_id":1}`: ops.CodeInvalidRequest, `[]`: ops.CodeInvalidRequest} {
		var r api.SkillGetReply
		if e := ask(events.LocalSkillGet, body, &r); e == nil || e.Code != code || strings.Contains(e.Message, "panic") || strings.Contains(e.Message, "reprise ") {
			t.Errorf("get %s = %+v, %v; want a %s refusal naming no command", body, r, e, code)
		}
	}
	var l api.SkillListReply
	if e := ask(events.LocalSkillList, `{}`, &l); e != nil || len(l.Skills) != 1 || l.Skills[0].Name != "Order a plan" || l.Skills[0].Steps == 0 {
		t.Fatalf("list = %+v", l)
	}
}

// TestServiceRefusesMalformedRequests: every endpoint refuses a bad body
// with the one envelope and INVALID_REQUEST, and keeps serving.
func TestServiceRefusesMalformedRequests(t *testing.T) {
	_, nc, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	book, err := Open(ctx, js, testKey)
	if err != nil {
		t.Fatal(err)
	}
	none := func(_ context.Context, id string) (*events.Recording, error) {
		return nil, ops.Errorf(ops.CodeRecordingNotFound, "no recording %s", id)
	}
	svc := &Service{Book: book, Reviewed: none, Fetch: none,
		Confirm: func(context.Context, string, map[string]string) error { return nil }}
	if err := svc.Serve(nc); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ subject, body string }{
		{events.LocalSkillBuild, `[]`},
		{events.LocalSkillBuild, `{"name":"x","recordings":"rec_a"}`},
		{events.LocalSkillDraft, `{`},
		{events.LocalSkillDraft, `{"recordings":["rec_a"]} {}`},
		{events.LocalSkillConfirm, `{"recording_id":1}`},
		{events.LocalSkillConfirm, `{"recording_id":"rec_a","answers":{},"extra":true}`},
		{events.LocalSkillGet, ``},
		{events.LocalSkillGet, `"order"`},
		{events.LocalSkillList, `{"all":true}`},
		{events.LocalSkillList, `[`},
		{events.LocalSkillPending, `{"skill_id":"x","op":1}`},
		{events.LocalSkillPending, `{"skill_id":"x","op":"get","extra":1}`},
	} {
		m, err := nc.Request(tc.subject, []byte(tc.body), 10*time.Second)
		if err != nil {
			t.Fatalf("%s %q: %v", tc.subject, tc.body, err)
		}
		var e *ops.Error
		if !errors.As(ops.ReplyError(m), &e) || e.Code != ops.CodeInvalidRequest || e.Message == "" ||
			m.Header.Get("Nats-Service-Error-Code") != ops.CodeInvalidRequest {
			t.Errorf("%s %q answered %s %v; want the INVALID_REQUEST envelope", tc.subject, tc.body, m.Data, m.Header)
		}
	}
	var l api.SkillListReply
	if err := ops.AskJSON(ctx, nc, events.LocalSkillList, nil, &l); err != nil || l.Skills == nil {
		t.Fatalf("list after the malformed requests = %+v, %v; want an empty list", l, err)
	}
	var r api.SkillConfirmReply
	if err := ops.AskJSON(ctx, nc, events.LocalSkillConfirm, api.SkillConfirmRequest{RecordingID: "rec_a", Answers: map[string]string{}}, &r); err != nil {
		t.Fatalf("confirm after the malformed requests: %v", err)
	}
}
