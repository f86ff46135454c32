package redact

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

const (
	testCard = "4111 1111 1111 1111"
	testKey  = "AKIAIOSFODNN7EXAMPLE"
)

func TestStepValue(t *testing.T) {
	for _, c := range []struct {
		name, label, raw, typ string
		changed               bool
		kinds                 []string
	}{
		{"ordinary", "First Name", "John", events.ValueText, false, nil},
		{"secret type", "Password", "hunter2", events.ValueSecret, true, []string{KindPassword}},
		{"secret already empty", "Password", "", events.ValueSecret, true, nil},
		{"password label", "Password", "hunter2", events.ValueText, true, []string{KindPassword}},
		{"card", "Notes", "my card " + testCard, events.ValueText, true, []string{KindCard}},
		{"card in number field", "Card number", "4111111111111111", events.ValueNumber, true, []string{KindCard}},
		{"one-time code", "One-time code", "482913", events.ValueText, true, []string{KindOneTimeCode}},
		{"code field, not a code", "Verification code", "I never got one", events.ValueText, false, nil},
		{"code outside a code field", "Quantity", "482913", events.ValueNumber, false, nil},
		{"cvv", "CVV", "123", events.ValueText, true, []string{KindCardCode}},
		{"ssn by label", "SSN", "219099999", events.ValueText, true, []string{KindSSN}},
		{"nine digits elsewhere", "Routing number", "219099999", events.ValueText, false, nil},
		{"key", "Notes", testKey, events.ValueText, true, []string{KindAPIKey}},
	} {
		s := formStep(c.raw, c.label)
		s.Value.Type = c.typ
		changed, kinds := Step(s)
		if changed != c.changed || !slices.Equal(kinds, c.kinds) {
			t.Errorf("%s: Step = %v, %v; want %v, %v", c.name, changed, kinds, c.changed, c.kinds)
		}
		if c.changed && (s.Value.Raw != "" || s.Value.Type != events.ValueSecret || !s.Redacted) {
			t.Errorf("%s: value %+v, redacted %v; want blank secret, redacted", c.name, *s.Value, s.Redacted)
		}
		if !c.changed && (s.Value.Raw != c.raw || s.Redacted) {
			t.Errorf("%s: value %+v, redacted %v; want untouched", c.name, *s.Value, s.Redacted)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("%s: Validate() = %v", c.name, err)
		}
	}
}

func TestStepURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://app.example.com/new", "https://app.example.com/new"},
		{"https://app.example.com/cb?state=xyz&access_token=abc.def&page=2",
			"https://app.example.com/cb?state=xyz&access_token=redacted&page=2"},
		{"https://app.example.com/pay?card=" + strings.ReplaceAll(testCard, " ", "+") + "&amount=10",
			"https://app.example.com/pay?card=redacted&amount=10"},
		{"https://app.example.com/cb#id_token=abc&token_type=bearer",
			"https://app.example.com/cb#id_token=redacted&token_type=bearer"},
		{"https://alice:hunter2@example.com/x", "https://alice:redacted@example.com/x"},
		{"https://example.com/keys/" + testKey + "/view?X-Amz-Signature=f00d&X-Amz-Date=20240101",
			"https://example.com/keys/redacted/view?X-Amz-Signature=redacted&X-Amz-Date=20240101"},
		{"https://docs.example.com/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit",
			"https://docs.example.com/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit"},
		{"https://example.com/?q=a&&b=&token=", "https://example.com/?q=a&&b=&token="},
	} {
		if got, _ := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q; want %q", c.in, got, c.want)
		}
		s := formStep("John", "First Name")
		s.Enrichment.URL = c.in
		changed, _ := Step(s)
		if s.Enrichment.URL != c.want || changed != (c.in != c.want) {
			t.Errorf("Step with url %q: url %q, changed %v; want %q", c.in, s.Enrichment.URL, changed, c.want)
		}
	}
}

func TestStepText(t *testing.T) {
	s := formStep("John", "First Name")
	n := "pasted " + testKey + " into the form"
	s.Narration = &n
	s.ActiveWindow = "Card " + testCard + " — Checkout"
	changed, kinds := Step(s)
	if !changed || !s.Redacted || !slices.Equal(kinds, []string{KindCard, KindAPIKey}) {
		t.Errorf("Step = %v, %v (redacted %v); want true, [card_number api_key]", changed, kinds, s.Redacted)
	}
	if want := "pasted " + Mask + " into the form"; *s.Narration != want {
		t.Errorf("narration = %q; want %q", *s.Narration, want)
	}
	if want := "Card " + Mask + " — Checkout"; s.ActiveWindow != want {
		t.Errorf("active_window = %q; want %q", s.ActiveWindow, want)
	}
	if n != "pasted "+testKey+" into the form" || s.Value.Raw != "John" {
		t.Errorf("Step wrote through the narration pointer or touched the value")
	}
}

func TestStepSharesNothing(t *testing.T) {
	v := &events.Value{Raw: testCard, Type: events.ValueText}
	a, b := formStep("", "Notes"), formStep("", "Notes")
	a.Value, b.Value = v, v
	e := b.Enrichment
	e.URL = "https://example.com/?token=abc"
	a.Enrichment = e
	Step(a)
	if v.Raw != testCard || e.URL != "https://example.com/?token=abc" {
		t.Errorf("Step changed a value or enrichment shared with another step")
	}
}

func TestStepIdempotent(t *testing.T) {
	for _, c := range readCorpus(t, "secrets.txt", true) {
		s := formStep(c.value, c.label)
		n := "note " + c.value
		s.Narration, s.ActiveWindow = &n, c.value
		s.Enrichment.URL = "https://example.com/x?v=" + strings.ReplaceAll(c.value, "&", "%26")
		Step(s)
		once := clone(s)
		if changed, kinds := Step(s); changed || kinds != nil {
			t.Errorf("secrets.txt:%d: second Step = %v, %v; want false, nil", c.line, changed, kinds)
		}
		if !sameStep(s, once) {
			t.Errorf("secrets.txt:%d: second Step changed the step", c.line)
		}
	}
}

func TestStepNil(t *testing.T) {
	if changed, kinds := Step(nil); changed || kinds != nil {
		t.Errorf("Step(nil) = %v, %v; want false, nil", changed, kinds)
	}
	s := formStep("", "")
	s.Value, s.Enrichment = nil, nil
	if changed, kinds := Step(s); changed || kinds != nil {
		t.Errorf("Step(bare step) = %v, %v; want false, nil", changed, kinds)
	}
}

// TestNoValueEscapes checks that what Step returns names kinds only, and
// that a redacted step, marshalled, holds none of the secret.
func TestNoValueEscapes(t *testing.T) {
	for _, c := range readCorpus(t, "secrets.txt", true) {
		s := formStep(c.value, c.label)
		if c.label == "" {
			n := "use " + c.value
			s.Narration, s.ActiveWindow = &n, c.value+" - Editor"
		}
		_, kinds := Step(s)
		for _, k := range kinds {
			if !slices.Contains(kindNames[:], k) {
				t.Errorf("secrets.txt:%d: Step returned %q, not a kind name", c.line, k)
			}
		}
		if s.Value.Raw != "" {
			t.Errorf("secrets.txt:%d: the %s value was kept", c.line, c.kind)
		}
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		// Short codes also occur by chance in the step's numbers.
		if quoted := strconv.Quote(c.value); len(c.value) >= 8 && strings.Contains(string(data), quoted[1:len(quoted)-1]) {
			t.Errorf("secrets.txt:%d: the redacted step still holds the %s", c.line, c.kind)
		}
	}
}

// TestNoLogPath guards the package boundary: nothing here logs, prints or
// returns an error that could carry a value.
func TestNoLogPath(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{"log", "log/slog", "fmt", "os", "errors"}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if slices.Contains(forbidden, path) {
				t.Errorf("%s imports %q; the redact package must not log, print or build errors", name, path)
			}
		}
	}
}

func clone(s *events.Step) *events.Step {
	c := *s
	c.Cursor = slices.Clone(s.Cursor)
	if s.Value != nil {
		v := *s.Value
		c.Value = &v
	}
	if s.Enrichment != nil {
		e := *s.Enrichment
		e.Selectors = slices.Clone(e.Selectors)
		c.Enrichment = &e
	}
	if s.Narration != nil {
		n := *s.Narration
		c.Narration = &n
	}
	return &c
}

func sameStep(a, b *events.Step) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func TestStepEffect(t *testing.T) {
	s := formStep("", "Save")
	s.Action, s.Value = events.ActionSubmit, nil
	texts := []string{"Customer created", "Card " + testCard + " saved"}
	s.Effect = &events.Effect{URL: "https://example.com/done?key=" + testKey, Texts: texts, Status: 201}
	changed, kinds := Step(s)
	if !changed || !s.Redacted || !slices.Equal(kinds, []string{KindCard, KindAPIKey}) {
		t.Errorf("Step = %v, %v; want true, [card_number api_key]", changed, kinds)
	}
	if got := s.Effect.Texts; got[0] != "Customer created" || got[1] != "Card "+Mask+" saved" {
		t.Errorf("effect texts = %q; want the card masked, the rest kept", got)
	}
	if strings.Contains(s.Effect.URL, testKey) || s.Effect.Status != 201 {
		t.Errorf("effect = %+v; want the key gone from its URL and the status kept", s.Effect)
	}
	if texts[1] != "Card "+testCard+" saved" {
		t.Error("Step wrote through the effect's texts")
	}
}
