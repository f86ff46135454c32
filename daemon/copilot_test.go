package daemon

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/ops"
)

// TestCopilotOps: a platform asks the questions of a recording through
// CLARIFY_PROMPT, answers them there, and reads its steps in plain words
// through INTERPRET_TURN; malformed requests are refused naming the field.
func TestCopilotOps(t *testing.T) {
	_, nc, c := scriptedDaemon(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	asked := ops.ConsentRequest{Mode: "copilot", InterpretationRoute: "extract_then_cloud", Channels: []string{"browser", "floor"}}
	tok := approvedToken(t, c, client.NewConsent(nc), asked).ConsentToken
	var started ops.Started
	if err := c.Call(ctx, ops.TypeStart, ops.StartRequest{Mode: asked.Mode, InterpretationRoute: asked.InterpretationRoute, Channels: asked.Channels, ConsentToken: tok}, &started); err != nil {
		t.Fatal(err)
	}
	var sum ops.Summary
	if err := c.Call(ctx, ops.TypeStop, started.Ref(), &sum); err != nil {
		t.Fatal(err)
	}

	var told ops.Interpretation
	if err := c.Call(ctx, ops.TypeInterpretTurn, ops.InterpretRequest{RecordingID: started.RecordingID, FromSeq: 2}, &told); err != nil {
		t.Fatal(err)
	}
	if len(told.Steps) != sum.StepCount-1 || told.Steps[0].Text != "Filled First Name with Maria" {
		t.Fatalf("INTERPRET_TURN = %+v; want the steps from 2 on, in words", told)
	}

	header := []string{"First Name", "Last Name", "Email", "Country"}
	var qs ops.Questions
	if err := c.Call(ctx, ops.TypeClarifyPrompt, ops.ClarifyRequest{RecordingID: started.RecordingID, Header: header}, &qs); err != nil {
		t.Fatal(err)
	}
	if len(qs.Questions) < 4 {
		t.Fatalf("CLARIFY_PROMPT = %+v; want a question for each value of one row", qs)
	}
	answers := map[string]string{}
	for _, q := range qs.Questions {
		answers[q.Parameter] = "const"
		for _, h := range header {
			if strings.EqualFold(h, q.Label) {
				answers[q.Parameter] = h
			}
		}
	}
	if err := c.Call(ctx, ops.TypeClarifyPrompt, ops.ClarifyRequest{RecordingID: started.RecordingID, Header: header, Answers: answers}, &qs); err != nil {
		t.Fatal(err)
	}
	if len(qs.Questions) != 0 {
		t.Fatalf("after the answers, still open: %+v", qs.Questions)
	}

	for _, tc := range []struct{ typ, payload, want string }{
		{ops.TypeClarifyPrompt, `{"recording_id":"rec_00000000-0000-4000-8000-000000000000"}`, ops.CodeRecordingNotFound},
		{ops.TypeClarifyPrompt, `{"recording_id":"x","answers":{"a":""}}`, ops.CodeRecordingNotFound},
		{ops.TypeInterpretTurn, `{"recording_id":1}`, ops.CodeInvalidRequest},
		{ops.TypeDryRunReplay, `{"recordings":["x"],"header":[],"rows":[]}`, ops.CodeInvalidRequest},
		{ops.TypeLocalLLM, `{}`, ops.CodeInterpretationUnavailable},
	} {
		var out map[string]any
		err := c.Call(ctx, tc.typ, json.RawMessage(tc.payload), &out)
		if e, ok := err.(*ops.Error); !ok || e.Code != tc.want {
			t.Errorf("%s %s = %v; want %s", tc.typ, tc.payload, err, tc.want)
		}
	}
}
