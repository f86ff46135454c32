package events

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

// The golden files are the wire schema of SPEC section 4. Each goes
// JSON -> Go -> msgpack -> Go -> JSON and must come back with the same keys
// and values, nulls included.

func TestStepGoldenRoundTrip(t *testing.T) {
	for _, path := range goldenFiles(t, "steps/*.json") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			orig := readFile(t, path)
			s, err := DecodeStepJSON(orig)
			if err != nil {
				t.Fatalf("DecodeStepJSON(%s) = %v; want nil", path, err)
			}
			mp, err := AppendMsgpack(nil, s)
			if err != nil {
				t.Fatalf("AppendMsgpack: %v", err)
			}
			if got, want := genericMsgpack(t, mp), generic(t, orig); !reflect.DeepEqual(got, want) {
				t.Errorf("msgpack of %s = %v;\nwant the JSON's keys and values %v", path, got, want)
			}
			back, err := DecodeStep(mp)
			if err != nil {
				t.Fatalf("DecodeStep(AppendMsgpack(%s)) = %v; want nil", path, err)
			}
			if !reflect.DeepEqual(back, s) {
				t.Errorf("DecodeStep(AppendMsgpack(s)) = %+v; want %+v", back, s)
			}
			out, err := json.Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := generic(t, out), generic(t, orig); !reflect.DeepEqual(got, want) {
				t.Errorf("round trip of %s =\n%s\nwant it equal to the golden file", path, out)
			}
		})
	}
}

func TestRecordingGoldenRoundTrip(t *testing.T) {
	for _, path := range goldenFiles(t, "recordings/*.json") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			orig := readFile(t, path)
			r, err := DecodeRecordingJSON(orig)
			if err != nil {
				t.Fatalf("DecodeRecordingJSON(%s) = %v; want nil", path, err)
			}
			mp, err := AppendMsgpack(nil, r)
			if err != nil {
				t.Fatalf("AppendMsgpack: %v", err)
			}
			if got, want := genericMsgpack(t, mp), generic(t, orig); !reflect.DeepEqual(got, want) {
				t.Errorf("msgpack of %s = %v;\nwant the JSON's keys and values %v", path, got, want)
			}
			back, err := DecodeRecording(mp)
			if err != nil {
				t.Fatalf("DecodeRecording(AppendMsgpack(%s)) = %v; want nil", path, err)
			}
			if !reflect.DeepEqual(back, r) {
				t.Errorf("DecodeRecording(AppendMsgpack(r)) = %+v; want %+v", back, r)
			}
			out, err := json.Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := generic(t, out), generic(t, orig); !reflect.DeepEqual(got, want) {
				t.Errorf("round trip of %s =\n%s\nwant it equal to the golden file", path, out)
			}
		})
	}
}

// TestGoldenIsSpec pins the fixtures to SPEC section 4: the recording example
// holds the step example, and the step's nullable fields are null.
func TestGoldenIsSpec(t *testing.T) {
	rec := generic(t, readFile(t, "testdata/recordings/spec.json")).(map[string]any)
	step := generic(t, readFile(t, "testdata/steps/spec_fill.json")).(map[string]any)
	steps, _ := rec["steps"].([]any)
	if len(steps) != 1 || !reflect.DeepEqual(steps[0], step) {
		t.Fatalf("recordings/spec.json steps = %v; want [the step of steps/spec_fill.json]", rec["steps"])
	}
	wantKeys := []string{"seq", "ts", "actor", "action", "screenshot_ref", "cursor", "active_app",
		"active_window", "enrichment", "value", "narration", "outcome", "redacted"}
	if len(step) != len(wantKeys) {
		t.Errorf("spec step has %d keys; want %d", len(step), len(wantKeys))
	}
	for _, k := range wantKeys {
		if _, ok := step[k]; !ok {
			t.Errorf("spec step lacks key %q", k)
		}
	}
	nulls := map[string]any{
		"narration":          step["narration"],
		"enrichment.ax_path": step["enrichment"].(map[string]any)["ax_path"],
		"value.is_parameter": step["value"].(map[string]any)["is_parameter"],
	}
	for field, v := range nulls {
		if v != nil {
			t.Errorf("spec step %s = %v; want null", field, v)
		}
	}
}

// TestNullsStayNull checks the Go side of the nullables: a null decodes to a
// nil pointer, not to a zero value that would re-encode as "" or false.
func TestNullsStayNull(t *testing.T) {
	s := specStep(t)
	if s.Narration != nil || s.Enrichment.AXPath != nil || s.Value.IsParameter != nil {
		t.Errorf("DecodeStepJSON(spec) narration, ax_path, is_parameter = %v, %v, %v; want nil, nil, nil",
			s.Narration, s.Enrichment.AXPath, s.Value.IsParameter)
	}
	click, err := DecodeStepJSON(readFile(t, "testdata/steps/click_none.json"))
	if err != nil {
		t.Fatal(err)
	}
	if click.Value != nil {
		t.Errorf("DecodeStepJSON(click_none) value = %+v; want nil", click.Value)
	}
	nav, err := DecodeStepJSON(readFile(t, "testdata/steps/navigate.json"))
	if err != nil {
		t.Fatal(err)
	}
	if nav.Enrichment != nil {
		t.Errorf("DecodeStepJSON(navigate) enrichment = %+v; want nil", nav.Enrichment)
	}
}

func TestAppendMsgpackAppends(t *testing.T) {
	s := specStep(t)
	alone, err := AppendMsgpack(nil, s)
	if err != nil {
		t.Fatal(err)
	}
	prefix := []byte("prefix")
	got, err := AppendMsgpack(prefix, s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], alone) {
		t.Errorf("AppendMsgpack(%q, s) = %q; want the prefix then %q", prefix, got, alone)
	}
	if _, err := AppendMsgpack(nil, make(chan int)); err == nil {
		t.Errorf("AppendMsgpack(nil, chan) = nil error; want an error")
	}
}
