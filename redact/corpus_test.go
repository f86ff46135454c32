package redact

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

// Targets of the corpus test (issue 4): recall on secret-shaped values,
// ordinary values altered, and password-field values removed.
const (
	minRecall         = 0.95
	minEmbeddedRecall = 0.90
	maxFalsePositive  = 0.05
)

type corpusLine struct {
	line               int
	kind, value, label string
}

// readCorpus reads testdata/name: one value a line, or kind<TAB>value with an
// optional <TAB>label when withKind; '#' lines and blank lines are skipped
// and "\n" in a value stands for a newline.
func readCorpus(t testing.TB, name string, withKind bool) []corpusLine {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		c := corpusLine{line: n, value: text}
		if withKind {
			fields := strings.Split(text, "\t")
			if len(fields) < 2 || len(fields) > 3 {
				t.Fatalf("%s:%d: want kind<TAB>value[<TAB>label], got %d fields", name, n, len(fields))
			}
			c.kind, c.value = fields[0], fields[1]
			if len(fields) == 3 {
				c.label = fields[2]
			}
		}
		c.value = strings.ReplaceAll(c.value, `\n`, "\n")
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// formStep is a valid fill step of raw into a field labelled label.
func formStep(raw, label string) *events.Step {
	s := &events.Step{
		Seq: 12, TS: 1712345678.42, Actor: events.ActorHuman, Action: events.ActionFill,
		ScreenshotRef: "stub_7c9e6679-7425-40de-944b-e07fc1f98165", Cursor: []int{840, 314},
		ActiveApp: "Google Chrome", ActiveWindow: "New customer — Acme",
		Enrichment: &events.Enrichment{
			Kind:      events.KindDOM,
			Selectors: []events.Selector{{Strategy: events.StrategyID, Value: "#field_7"}},
			Role:      "textbox", Label: label, URL: "https://app.example.com/new",
		},
		Value:   &events.Value{Raw: raw, Type: events.ValueText},
		Outcome: events.OutcomeOK,
	}
	if label != "" {
		s.Enrichment.Selectors = append(s.Enrichment.Selectors, events.Selector{Strategy: events.StrategyLabel, Value: label})
	}
	return s
}

// neutralLabel is a field that hints at nothing, so only the detectors act.
const neutralLabel = "Notes"

func TestCorpusRecall(t *testing.T) {
	secrets := readCorpus(t, "secrets.txt", true)
	kinds := map[string]bool{}
	type tally struct{ n, removed, kindOK, embedN, embedRemoved int }
	per := map[string]*tally{}
	var all tally
	for _, c := range secrets {
		kinds[c.kind] = true
		tl := per[c.kind]
		if tl == nil {
			tl = &tally{}
			per[c.kind] = tl
		}
		label := c.label
		if label == "" {
			label = neutralLabel
		}
		s := formStep(c.value, label)
		_, got := Step(s)
		tl.n++
		all.n++
		if s.Value.Raw == "" && s.Value.Type == events.ValueSecret && s.Redacted {
			tl.removed++
			all.removed++
		} else {
			t.Errorf("secrets.txt:%d: %s value kept (kinds %v)", c.line, c.kind, got)
		}
		if slices.Contains(got, c.kind) {
			tl.kindOK++
			all.kindOK++
		}
		if err := s.Validate(); err != nil {
			t.Errorf("secrets.txt:%d: redacted step invalid: %v", c.line, err)
		}
		if c.label != "" {
			continue // context kinds have no shape to find in free text
		}
		n := "Please use " + c.value + " for the Acme account."
		e := formStep("", neutralLabel)
		e.Value, e.Narration, e.ActiveWindow = nil, &n, "Settings — "+c.value+" — Acme"
		Step(e)
		tl.embedN++
		all.embedN++
		if !strings.Contains(*e.Narration, c.value) && !strings.Contains(e.ActiveWindow, c.value) {
			tl.embedRemoved++
			all.embedRemoved++
		} else {
			t.Logf("secrets.txt:%d: %s kept inside text", c.line, c.kind)
		}
	}
	if len(secrets) < 60 || len(kinds) < 10 {
		t.Errorf("secrets.txt has %d values of %d kinds; want at least 60 of 10", len(secrets), len(kinds))
	}
	names := make([]string, 0, len(per))
	for k := range per {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		tl := per[k]
		t.Logf("recall %-20s %3d/%-3d value, %3d/%-3d kind named, %3d/%-3d inside text",
			k, tl.removed, tl.n, tl.kindOK, tl.n, tl.embedRemoved, tl.embedN)
	}
	recall := float64(all.removed) / float64(all.n)
	embedded := float64(all.embedRemoved) / float64(all.embedN)
	t.Logf("summary: recall %.1f%% (%d/%d values), kind named %d/%d, inside text %.1f%% (%d/%d)",
		100*recall, all.removed, all.n, all.kindOK, all.n, 100*embedded, all.embedRemoved, all.embedN)
	if recall < minRecall {
		t.Errorf("recall %.1f%%; want >= %.0f%%", 100*recall, 100*minRecall)
	}
	if embedded < minEmbeddedRecall {
		t.Errorf("recall inside text %.1f%%; want >= %.0f%%", 100*embedded, 100*minEmbeddedRecall)
	}
}

func TestCorpusFalsePositives(t *testing.T) {
	ordinary := readCorpus(t, "ordinary.txt", false)
	if len(ordinary) < 60 {
		t.Errorf("ordinary.txt has %d values; want at least 60", len(ordinary))
	}
	altered := 0
	for _, c := range ordinary {
		s := formStep(c.value, neutralLabel)
		n := "Customer said: " + c.value
		s.Narration = &n
		s.Enrichment.URL = "https://app.example.com/search?q=" + strings.ReplaceAll(c.value, "&", "%26")
		want := *s
		changed, kinds := Step(s)
		if changed || s.Value.Raw != c.value || *s.Narration != n || s.Enrichment.URL != want.Enrichment.URL {
			altered++
			t.Logf("ordinary.txt:%d: altered (kinds %v)", c.line, kinds)
		}
	}
	rate := float64(altered) / float64(len(ordinary))
	t.Logf("summary: false positives %.1f%% (%d/%d ordinary values altered)", 100*rate, altered, len(ordinary))
	if rate > maxFalsePositive {
		t.Errorf("false-positive rate %.1f%%; want <= %.0f%%", 100*rate, 100*maxFalsePositive)
	}
}

// TestCorpusPasswordFields checks that every value of either corpus, typed
// into a password field (type secret, or a field labelled as one), goes.
func TestCorpusPasswordFields(t *testing.T) {
	var values []string
	for _, c := range readCorpus(t, "secrets.txt", true) {
		values = append(values, c.value)
	}
	for _, c := range readCorpus(t, "ordinary.txt", false) {
		values = append(values, c.value)
	}
	removed, total := 0, 0
	for _, v := range values {
		for _, label := range []string{"", "Password", "PIN", "confirmPassword"} {
			s := formStep(v, label)
			if label == "" {
				s.Value.Type = events.ValueSecret
			}
			Step(s)
			total++
			if s.Value.Raw == "" && s.Value.Type == events.ValueSecret && s.Redacted && s.Validate() == nil {
				removed++
			} else {
				t.Errorf("password field %q kept its value (type %s)", label, s.Value.Type)
			}
		}
	}
	t.Logf("summary: password fields %d/%d values removed", removed, total)
}
