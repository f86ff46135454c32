package skillbook

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/ops"
)

// TestIncompleteRecordingIsBuiltOnlyAfterYes: a recording that lost steps
// when it was made raises a question and saves nothing until the person
// answers yes (issue 32: a skill built from one without a warning).
func TestIncompleteRecordingIsBuiltOnlyAfterYes(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	book, err := Open(ctx, js, testKey)
	if err != nil {
		t.Fatal(err)
	}
	recs := map[string]events.Recording{"rec_a": fixture(t, "rec1.json"), "rec_b": fixture(t, "rec2.json")}
	svc := &Service{Book: book, Log: slog.New(slog.DiscardHandler),
		Reviewed: func(_ context.Context, id string) (*events.Recording, error) { r := recs[id]; return &r, nil },
		Lost: func(_ context.Context, id string) (uint64, error) {
			if id == "rec_b" {
				return 3, nil
			}
			return 0, nil
		}}
	build := func(confirm map[string]string) api.SkillBuildReply {
		return svc.Build(ctx, api.SkillBuildRequest{Name: "Order a plan", Recordings: []string{"rec_a", "rec_b"}, Confirm: confirm})
	}
	for _, tc := range []struct {
		name    string
		confirm map[string]string
		saved   bool
		code    string
	}{
		{"no answer", nil, false, ""},
		{"another recording's answer", map[string]string{"incomplete:rec_a": "yes"}, false, ""},
		{"not yes or no", map[string]string{"incomplete:rec_b": "sure"}, false, ops.CodeInvalidRequest},
		{"no", map[string]string{"incomplete:rec_b": "no"}, false, ops.CodeInvalidRequest},
		{"yes", map[string]string{"incomplete:rec_b": "yes"}, true, ""},
	} {
		r := build(tc.confirm)
		if r.Saved != tc.saved {
			t.Errorf("%s: saved = %v; want %v (%+v)", tc.name, r.Saved, tc.saved, r.Error)
		}
		switch {
		case tc.code != "":
			if r.Error == nil || r.Error.Code != tc.code {
				t.Errorf("%s: error %v; want %s", tc.name, r.Error, tc.code)
			}
		case !tc.saved:
			asked := false
			for _, q := range r.Questions {
				asked = asked || q.Kind == "incomplete" && q.Parameter == "incomplete:rec_b" && strings.Contains(q.Text, "lost 3 step(s)")
			}
			if !asked {
				t.Errorf("%s: no question about rec_b's lost steps: %+v", tc.name, r.Questions)
			}
		default:
			if !strings.Contains(strings.Join(r.Notes, "\n"), "lost 3 step(s)") {
				t.Errorf("%s: the notes do not say the skill was built from an incomplete recording: %q", tc.name, r.Notes)
			}
		}
	}
}
