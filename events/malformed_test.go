package events

import (
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// decoders are the four decoders under a common signature.
var decoders = map[string]func([]byte) (any, error){
	"DecodeStep":          func(b []byte) (any, error) { return DecodeStep(b) },
	"DecodeStepJSON":      func(b []byte) (any, error) { return DecodeStepJSON(b) },
	"DecodeRecording":     func(b []byte) (any, error) { return DecodeRecording(b) },
	"DecodeRecordingJSON": func(b []byte) (any, error) { return DecodeRecordingJSON(b) },
}

// wantMalformed fails unless err wraps ErrMalformed, names field (when
// given) as a SchemaError, and leaves the planted secret out of its message.
func wantMalformed(t *testing.T, call string, v any, err error, field string) {
	t.Helper()
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("%s = %v, %v; want an error wrapping ErrMalformed", call, v, err)
	}
	if strings.Contains(err.Error(), planted) {
		t.Errorf("%s error %q repeats the secret value; want it left out", call, err)
	}
	var se *SchemaError
	if field != "" && (!errors.As(err, &se) || se.Field != field) {
		t.Errorf("%s = %v; want a SchemaError on %s", call, err, field)
	}
}

// fixtureFields is the field a schema error must name, for the fixtures
// whose problem is the schema rather than the encoding.
var fixtureFields = map[string]string{
	"steps/action_missing":            "step.action",
	"steps/action_unknown":            "step.action",
	"steps/action_wrong_case":         "step.action",
	"steps/actor_bad":                 "step.actor",
	"steps/cursor_null":               "step.cursor",
	"steps/cursor_one":                "step.cursor",
	"steps/cursor_three":              "step.cursor",
	"steps/kind_bad":                  "step.enrichment.kind",
	"steps/dialog_bad":                "step.enrichment.dialog",
	"steps/half_bad":                  "step.enrichment.half",
	"steps/outcome_bad":               "step.outcome",
	"steps/secret_with_raw":           "step.value.raw",
	"steps/selector_value_empty":      "step.enrichment.selectors[2].value",
	"steps/strategy_bad":              "step.enrichment.selectors[1].strategy",
	"steps/ts_negative":               "step.ts",
	"steps/value_type_bad":            "step.value.type",
	"steps/effect_status_bad":         "step.effect.status",
	"steps/effect_texts_many":         "step.effect.texts",
	"steps/effect_echoed_empty":       "step.effect.echoed[1]",
	"steps/field_role_missing":        "step.fields[1].role",
	"steps/field_option_empty":        "step.fields[1].options[2]",
	"steps/field_strategy_bad":        "step.fields[0].selectors[1].strategy",
	"recordings/created_at_negative":  "created_at",
	"recordings/id_no_prefix":         "recording_id",
	"recordings/id_prefix_only":       "recording_id",
	"recordings/seq_decreasing":       "steps[3].seq",
	"recordings/seq_repeated":         "steps[2].seq",
	"recordings/step_bad_kind":        "steps[1].enrichment.kind",
	"recordings/step_secret_with_raw": "steps[4].value.raw",
	"recordings/step_alone":           "recording_id",
	"recordings/version_2":            "version",
	"recordings/version_missing":      "version",
}

// msgpackCanCarry lists fixtures the msgpack decoder accepts by design of the
// library: it reads a negative integer into a uint64 by wrapping it, so a
// negative seq decodes as a huge one. Only the JSON decoders refuse it.
var msgpackCanCarry = map[string]bool{"steps/seq_negative": true}

// TestMalformedFixtures runs every file of testdata/malformed through the
// JSON decoder of its kind and, when it is valid JSON, the same document
// re-encoded as msgpack through the msgpack decoder.
func TestMalformedFixtures(t *testing.T) {
	for _, kind := range []struct{ dir, jsonDec, mpDec string }{
		{"steps", "DecodeStepJSON", "DecodeStep"},
		{"recordings", "DecodeRecordingJSON", "DecodeRecording"},
	} {
		for _, path := range goldenFiles(t, "malformed/"+kind.dir+"/*.json") {
			name := kind.dir + "/" + strings.TrimSuffix(filepath.Base(path), ".json")
			t.Run(name, func(t *testing.T) {
				b := readFile(t, path)
				v, err := decoders[kind.jsonDec](b)
				wantMalformed(t, kind.jsonDec+"("+name+")", v, err, fixtureFields[name])
				if !json.Valid(b) || msgpackCanCarry[name] {
					return
				}
				v, err = decoders[kind.mpDec](jsonToMsgpack(t, b))
				wantMalformed(t, kind.mpDec+"("+name+")", v, err, fixtureFields[name])
			})
		}
	}
}

// stepMsgpack is the SPEC step as msgpack, with fields replaced.
func stepMsgpack(t *testing.T, set map[string]any) []byte {
	t.Helper()
	var m map[string]any
	if err := msgpack.Unmarshal(jsonToMsgpack(t, readFile(t, "testdata/steps/spec_fill.json")), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		m[k] = v
	}
	return mustMsgpack(m)
}

// TestMalformedMsgpack covers what only msgpack can say: NaN and infinite
// times, trailing bytes, truncation, and headers that claim more than the
// input holds.
func TestMalformedMsgpack(t *testing.T) {
	step := stepMsgpack(t, nil)
	rec := jsonToMsgpack(t, readFile(t, "testdata/recordings/spec.json"))
	huge := msgpack.RawMessage{0xdd, 0xff, 0xff, 0xff, 0xff} // array32 of 2^32-1
	deep := msgpack.RawMessage(strings.Repeat("\x91", 10000) + "\xc0")
	tests := []struct {
		name, dec string
		in        []byte
		field     string
	}{
		{"nil", "DecodeStep", nil, ""},
		{"empty", "DecodeRecording", []byte{}, ""},
		{"ts NaN", "DecodeStep", stepMsgpack(t, map[string]any{"ts": math.NaN()}), "step.ts"},
		{"ts +Inf", "DecodeStep", stepMsgpack(t, map[string]any{"ts": math.Inf(1)}), "step.ts"},
		{"ts negative", "DecodeStep", stepMsgpack(t, map[string]any{"ts": -0.5}), "step.ts"},
		{"seq float", "DecodeStep", stepMsgpack(t, map[string]any{"seq": 1.5}), ""},
		{"seq string", "DecodeStep", stepMsgpack(t, map[string]any{"seq": "12"}), ""},
		{"cursor of strings", "DecodeStep", stepMsgpack(t, map[string]any{"cursor": []string{"1", "2"}}), ""},
		{"secret raw as bytes", "DecodeStep", stepMsgpack(t, map[string]any{
			"value": map[string]any{"raw": []byte(planted), "type": "secret"}}), "step.value.raw"},
		{"step truncated", "DecodeStep", step[:len(step)/2], ""},
		{"step one byte short", "DecodeStep", step[:len(step)-1], ""},
		{"step trailing nil", "DecodeStep", append(step[:len(step):len(step)], 0xc0), ""},
		{"step twice", "DecodeStep", append(step[:len(step):len(step)], step...), ""},
		{"recording truncated", "DecodeRecording", rec[:len(rec)-2], ""},
		{"recording trailing byte", "DecodeRecording", append(rec[:len(rec):len(rec)], 0x00), ""},
		{"reserved code", "DecodeStep", []byte{0xc1}, ""},
		{"cursor claims 2^32 ints", "DecodeStep", stepMsgpack(t, map[string]any{"cursor": huge}), ""},
		{"selectors claim 2^32", "DecodeStep", stepMsgpack(t, map[string]any{
			"enrichment": map[string]any{"kind": "dom", "selectors": huge}}), ""},
		{"steps claim 2^32", "DecodeRecording", mustMsgpack(map[string]any{"recording_id": "rec_x", "steps": huge}), ""},
		{"map claims 2^32 keys", "DecodeStep", []byte{0xdf, 0xff, 0xff, 0xff, 0xff, 0xc0}, ""},
		{"string claims 4 GiB", "DecodeStep", []byte{0x81, 0xa6, 'a', 'c', 't', 'o', 'r', 0xdb, 0xff, 0xff, 0xff, 0xff, 'x'}, ""},
		{"deep unknown field", "DecodeStep", stepMsgpack(t, map[string]any{"x_future": deep}), ""},
		{"step over MaxEventSize", "DecodeStep", stepMsgpack(t, map[string]any{
			"narration": strings.Repeat("n", MaxEventSize)}), ""},
		{"recording over MaxEventSize", "DecodeRecording", make([]byte, MaxEventSize+1), ""},
		{"step as recording", "DecodeRecording", step, "recording_id"},
		{"recording as step", "DecodeStep", rec, "step.actor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := decoders[tt.dec](tt.in)
			wantMalformed(t, tt.dec+"("+tt.name+")", v, err, tt.field)
		})
	}
}

// TestMalformedJSONSize covers the size bound for JSON, which a fixture file
// would make needlessly large.
func TestMalformedJSONSize(t *testing.T) {
	big := []byte(`{"narration": "` + strings.Repeat("n", MaxEventSize) + `"}`)
	for _, dec := range []string{"DecodeStepJSON", "DecodeRecordingJSON"} {
		v, err := decoders[dec](big)
		wantMalformed(t, dec+"(over MaxEventSize)", v, err, "")
	}
}

// TestNotMalformedAtLimits guards the other side: input exactly at the limits
// the malformed cases probe must still decode.
func TestNotMalformedAtLimits(t *testing.T) {
	s := specStep(t)
	s.TS = 0
	s.Cursor = []int{-20, 0} // a window on a screen left of the primary one
	b, err := AppendMsgpack(nil, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeStep(b); err != nil {
		t.Errorf("DecodeStep(ts 0, cursor [-20 0]) = %v; want nil", err)
	}
	pad := MaxEventSize - len(b) - 16
	s.Narration = new(strings.Repeat("n", pad))
	if b, _ = AppendMsgpack(nil, s); len(b) > MaxEventSize {
		t.Fatalf("padded step is %d bytes; want at most %d", len(b), MaxEventSize)
	}
	if _, err := DecodeStep(b); err != nil {
		t.Errorf("DecodeStep(%d bytes) = %v; want nil", len(b), err)
	}
}
