package recorder

import (
	"context"
	"slices"
	"testing"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/ops"
)

// TestRouteProbedAndPoorRecordingsFlagged: the route a recording gets is
// the probe's, kept on the recording; a floor recording of steps that
// resolved nothing, with no OCR, is flagged at stop; a start that nothing
// can interpret is refused before the consent token is used.
func TestRouteProbedAndPoorRecordingsFlagged(t *testing.T) {
	blind := func(n int) []events.Step {
		out := make([]events.Step, n)
		for i := range out {
			out[i] = events.Step{Actor: events.ActorHuman, Action: events.ActionClick, Cursor: []int{i, i}, Outcome: events.OutcomeOK, ActiveApp: "Legacy"}
		}
		return out
	}
	absent := func(context.Context) (bool, string) { return false, "not installed" }
	works := func(context.Context) (bool, string) { return true, "" }
	for _, tc := range []struct {
		name     string
		ocr, vlm interpret.Check
		route    string
		warned   bool
	}{
		{"OCR reads the frames", works, absent, interpret.RouteExtractThenCloud, false},
		{"a local model, no OCR", absent, works, interpret.RouteLocalVLM, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			used := 0
			consent := func(context.Context, string, string, string, []string) error { used++; return nil }
			r := newRig(t, consent, &burst{name: "floor", channels: []string{capture.ChannelFloor}, steps: blind(5), ok: true})
			r.rec.cfg.Router = interpret.Prober{Structured: func(c string) bool { return c == capture.ChannelBrowser }, OCR: tc.ocr, LocalVLM: tc.vlm}
			ctx := context.Background()
			started, err := r.rec.StartRecording(ctx, startReq(capture.ModeDemonstration, capture.ChannelFloor))
			if err != nil {
				t.Fatal(err)
			}
			if started.InterpretationRoute != tc.route || used != 1 {
				t.Fatalf("started %+v, consent used %d times; want route %s", started, used, tc.route)
			}
			sum, err := r.rec.StopRecording(ctx, started.Ref())
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(sum.Warnings, interpret.PoorWarning); got != tc.warned {
				t.Errorf("warnings %q; want the poor-recording flag: %v", sum.Warnings, tc.warned)
			}
			rec, err := r.rec.FetchRecording(ctx, started.Ref())
			if err != nil || rec.InterpretationRoute != tc.route {
				t.Fatalf("fetched route %q, %v; want %s", rec.InterpretationRoute, err, tc.route)
			}
		})
	}

	used := 0
	consent := func(context.Context, string, string, string, []string) error { used++; return nil }
	r := newRig(t, consent, &burst{name: "floor", channels: []string{capture.ChannelFloor}, steps: blind(1), ok: true})
	r.rec.cfg.Router = interpret.Prober{OCR: absent, LocalVLM: absent}
	_, err := r.rec.StartRecording(context.Background(), startReq(capture.ModeDemonstration, capture.ChannelFloor))
	wantCode(t, err, ops.CodeInterpretationUnavailable)
	if used != 0 {
		t.Fatal("a start that cannot be interpreted used up the consent token")
	}
}
