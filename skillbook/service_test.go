package skillbook

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/ops"
)

// fixture reads one of the skills package's generalization cases.
func fixture(t *testing.T, name string) events.Recording {
	t.Helper()
	b, err := os.ReadFile("../skills/testdata/generalize/select_checkbox/" + name)
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
	book, err := Open(ctx, js)
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
	ask := func(subject, body string, reply any) {
		t.Helper()
		m, err := nc.Request(subject, []byte(body), 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(m.Data, reply); err != nil {
			t.Fatalf("%s answered %s", subject, m.Data)
		}
	}

	for _, tc := range []struct{ body, code string }{
		{`{`, ops.CodeInvalidRequest},
		{`{"name":"x","recordings":["rec_a"],"extra":1}`, ops.CodeInvalidRequest},
		{`{"name":"x","recordings":[]}`, ops.CodeInvalidRequest},
		{`{"name":"","recordings":["rec_a","rec_b"]}`, ops.CodeInvalidRequest},
		{`{"name":"x","recordings":["rec_a","rec_unreviewed"]}`, ops.CodeReviewRequired},
	} {
		var r BuildReply
		ask(BuildSubject, tc.body, &r)
		if r.Error == nil || r.Error.Code != tc.code || r.Saved {
			t.Errorf("build %s = %+v; want %s", tc.body, r, tc.code)
		}
	}

	var built BuildReply
	ask(BuildSubject, `{"name":"Order a plan","recordings":["rec_a","rec_b"]}`, &built)
	if built.Error != nil || !built.Saved || built.SkillID != "order-a-plan" || built.Revision == 0 {
		t.Fatalf("build = %+v", built)
	}
	if len(aud.kinds) != 1 || aud.kinds[0] != "skill.built" {
		t.Errorf("audit entries %v; want one skill.built", aud.kinds)
	}
	var got GetReply
	ask(GetSubject, `{"skill_id":"order-a-plan"}`, &got)
	if got.Error != nil || got.YAML != built.YAML || got.Revision != built.Revision {
		t.Fatalf("get = %+v", got)
	}
	for _, body := range []string{`{"skill_id":"nope"}`, `{"skill_id":"../x"}`, `{"skill_id":1}`, `[]`} {
		var r GetReply
		ask(GetSubject, body, &r)
		if r.Error == nil || strings.Contains(r.Error.Message, "panic") {
			t.Errorf("get %s = %+v; want an error", body, r)
		}
	}
	var l ListReply
	ask(ListSubject, `{}`, &l)
	if l.Error != nil || len(l.Skills) != 1 || l.Skills[0].Name != "Order a plan" || l.Skills[0].Steps == 0 {
		t.Fatalf("list = %+v", l)
	}
}
