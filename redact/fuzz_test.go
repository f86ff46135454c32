package redact

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
)

var fuzzTypes = []string{
	events.ValueText, events.ValueEmail, events.ValueNumber, events.ValueDate,
	events.ValueSecret, events.ValueFile, events.ValueEnum,
}

// FuzzStep checks that Step never panics, that a valid step stays valid,
// that a second application changes nothing, and that a secret-typed value
// always comes out empty.
func FuzzStep(f *testing.F) {
	for _, c := range readCorpus(f, "secrets.txt", true) {
		f.Add(c.value, c.label, "https://example.com/?q="+c.value, c.value, c.value, uint8(0))
	}
	for _, c := range readCorpus(f, "ordinary.txt", false) {
		f.Add(c.value, "Notes", "https://example.com/"+c.value, c.value, "", uint8(2))
	}
	f.Add("hunter2", "Password", "https://u:p@example.com/#access_token=x", "", "", uint8(4))
	f.Fuzz(func(t *testing.T, raw, label, url, narration, window string, typ uint8) {
		s := formStep(raw, label)
		s.Value.Type = fuzzTypes[int(typ)%len(fuzzTypes)]
		if s.Value.Type == events.ValueSecret && typ&0x80 != 0 {
			s.Value.Raw = ""
		}
		s.Enrichment.URL = url
		s.ActiveWindow = window
		if narration != "" {
			s.Narration = &narration
		}
		valid := s.Validate() == nil
		Step(s)
		if valid {
			if err := s.Validate(); err != nil {
				t.Fatalf("Step made a valid step invalid: %v", err)
			}
		}
		if s.Value.Type == events.ValueSecret && (s.Value.Raw != "" || !s.Redacted) {
			t.Fatalf("secret value kept, or step not marked redacted")
		}
		once := clone(s)
		if changed, kinds := Step(s); changed || kinds != nil {
			t.Fatalf("second Step = %v, %v; want false, nil", changed, kinds)
		}
		if !sameStep(s, once) {
			t.Fatalf("second Step changed the step")
		}
	})
}
