package heal

import (
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	refs := map[string]int{"e1": 1, "e7": 7}
	for _, tc := range []struct {
		name, answer string
		want         Move
		err          string
	}{
		{"step", `{"action":"step","element":"e7"}`, Move{Kind: KindStep, Ref: 7}, ""},
		{"click in a fence", "```json\n{\"action\":\"click\",\"element\":\"e1\"}\n```", Move{Kind: KindClick, Ref: 1}, ""},
		{"done", `{"done":true}`, Move{Done: true}, ""},
		{"ask", `{"ask":"  which form?  "}`, Move{Ask: "which form?"}, ""},
		{"prose", `I would click the email box.`, Move{}, "one JSON object"},
		{"two moves", `{"action":"step","element":"e7","done":true}`, Move{}, "exactly one"},
		{"none", `{}`, Move{}, "exactly one"},
		{"typed text", `{"action":"step","element":"e7","text":"evil"}`, Move{}, "one JSON object"},
		{"unknown action", `{"action":"type","element":"e1"}`, Move{}, `"type" is not`},
		{"no element", `{"action":"click"}`, Move{}, `"element"`},
		{"unlisted element", `{"action":"click","element":"e99"}`, Move{}, "not in the list"},
		{"done false", `{"done":false}`, Move{}, `"done" is true`},
		{"done with element", `{"done":true,"element":"e1"}`, Move{}, `"done" is true`},
		{"empty ask", `{"ask":" "}`, Move{}, `"ask" is a question`},
		{"repeated key", `{"action":"click","action":"step","element":"e1"}`, Move{}, "one JSON object"},
		{"second object", `{"done":true} {"done":true}`, Move{}, "one JSON object"},
		{"not a string", `{"action":7,"element":"e1"}`, Move{}, "one JSON object"},
	} {
		got, err := decode(tc.answer, refs)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("%s: decode = %+v, %v; want %+v", tc.name, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: decode = %+v, %v; want an error with %q", tc.name, got, err, tc.err)
		}
	}
}

func TestDecodeCutsALongQuestion(t *testing.T) {
	got, err := decode(`{"ask":"`+strings.Repeat("why ", 200)+`"}`, nil)
	if err != nil || len(got.Ask) > maxAsk+3 {
		t.Fatalf("decode(long ask) = %d bytes, %v; want at most %d", len(got.Ask), err, maxAsk+3)
	}
}

// FuzzDecode: whatever a model answers, decode returns a move that names
// a listed element, or done, or a question, or an error; never a panic.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"action":"step","element":"e7"}`, `{"done":true}`, `{"ask":"x"}`, "```json\n{}\n```",
		`{"action":"click","element":"e1","x":1}`, `[{"action":"step"}]`, `{"ask":null}`, `{"done":true}}`, `{"{":"}"}`} {
		f.Add(s)
	}
	refs := map[string]int{"e1": 1, "e7": 7}
	f.Fuzz(func(t *testing.T, answer string) {
		m, err := decode(answer, refs)
		if err != nil {
			return
		}
		switch {
		case m.Done:
			if m.Kind != "" || m.Ask != "" {
				t.Fatalf("done with more: %+v", m)
			}
		case m.Ask != "":
			if m.Kind != "" {
				t.Fatalf("ask with an action: %+v", m)
			}
		case m.Kind == KindStep || m.Kind == KindClick:
			if m.Ref != 1 && m.Ref != 7 {
				t.Fatalf("an action on an unlisted element: %+v", m)
			}
		default:
			t.Fatalf("no move: %+v from %q", m, answer)
		}
	})
}
