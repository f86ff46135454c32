package interpret

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

func works(context.Context) (bool, string)  { return true, "" }
func absent(context.Context) (bool, string) { return false, "not installed" }

func TestRoute(t *testing.T) {
	browserOnly := func(c string) bool { return c == "browser" }
	cases := []struct {
		name      string
		ocr, vlm  Check
		requested string
		channels  []string
		want      string // the effective route, or the error code
	}{
		{"browser gives DOM", absent, absent, RouteExtractThenCloud, []string{"browser"}, RouteExtractThenCloud},
		{"floor read by OCR", works, absent, RouteExtractThenCloud, []string{"floor"}, RouteExtractThenCloud},
		{"floor, only a local model", absent, works, RouteExtractThenCloud, []string{"floor"}, RouteLocalVLM},
		{"floor, nothing local", absent, absent, RouteExtractThenCloud, []string{"floor"}, ops.CodeInterpretationUnavailable},
		{"floor, nothing local, pixels agreed", absent, absent, RouteScreenshotsToCloud, []string{"floor"}, RouteScreenshotsToCloud},
		{"pixels agreed but OCR works: text only", works, absent, RouteScreenshotsToCloud, []string{"floor"}, RouteExtractThenCloud},
		{"pixels agreed, a local model: nothing leaves", absent, works, RouteScreenshotsToCloud, []string{"floor"}, RouteLocalVLM},
		{"local model asked and answering", works, works, RouteLocalVLM, []string{"browser"}, RouteLocalVLM},
		{"local model asked, none answers", works, absent, RouteLocalVLM, []string{"browser"}, ops.CodeInterpretationUnavailable},
		{"no checks set up", nil, nil, RouteExtractThenCloud, []string{"floor"}, ops.CodeInterpretationUnavailable},
		{"unknown route", works, works, "telepathy", []string{"browser"}, ops.CodeInvalidRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := Prober{Structured: browserOnly, OCR: tc.ocr, LocalVLM: tc.vlm}
			probe, err := p.Route(context.Background(), tc.requested, tc.channels)
			var oe *ops.Error
			switch {
			case errors.As(err, &oe):
				if oe.Code != tc.want {
					t.Fatalf("error %v; want %s", err, tc.want)
				}
				if oe.Code == ops.CodeInterpretationUnavailable && !strings.Contains(oe.Message, "install") && !strings.Contains(oe.Message, "configure") {
					t.Errorf("the error does not say what to do: %s", oe.Message)
				}
			case err != nil:
				t.Fatalf("error %v; want %s", err, tc.want)
			case probe.Effective != tc.want || probe.Requested != tc.requested:
				t.Fatalf("probe %+v; want effective %s", probe, tc.want)
			}
		})
	}
}

func TestRecordsPoorly(t *testing.T) {
	noOCR, ocr := &events.RouteProbe{}, &events.RouteProbe{OCR: true}
	cases := []struct {
		probe       *events.RouteProbe
		steps, none int
		want        bool
	}{
		{noOCR, 10, 6, true},
		{noOCR, 10, 5, false}, // exactly half is not more than half
		{ocr, 10, 10, false},
		{nil, 10, 10, false}, // a recording from before probes: unknown, not flagged
		{noOCR, 0, 0, false},
	}
	for _, tc := range cases {
		if got := RecordsPoorly(tc.probe, tc.steps, tc.none); got != tc.want {
			t.Errorf("RecordsPoorly(%+v, %d, %d) = %v; want %v", tc.probe, tc.steps, tc.none, got, tc.want)
		}
	}
}
