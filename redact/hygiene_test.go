package redact

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
)

func TestHygiene(t *testing.T) {
	shared := &events.Value{Raw: "hunter2", Type: events.ValueSecret}
	s := events.Step{Value: shared}
	if !Hygiene(&s) || s.Value.Raw != "" || !s.Redacted || s.Value.Type != events.ValueSecret {
		t.Fatalf("Hygiene(secret) = %+v, %+v; want its raw text gone and the step redacted", s, s.Value)
	}
	if shared.Raw != "hunter2" {
		t.Error("Hygiene wrote through the step's value instead of a copy")
	}
	if Hygiene(&s) {
		t.Error("Hygiene twice changed the step again")
	}
	for _, st := range []events.Step{{}, {Value: &events.Value{Raw: "Ada", Type: events.ValueText}}} {
		if Hygiene(&st) || st.Redacted {
			t.Errorf("Hygiene(%+v) changed a step with no secret", st.Value)
		}
	}
}
