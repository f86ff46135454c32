package scripted

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// planted is a field value in the malformed fixtures: no reason may repeat it.
const planted = "hunter2"

const form = "testdata/form.json"

func formSteps(t *testing.T) []events.Step {
	t.Helper()
	b, err := os.ReadFile(form)
	if err != nil {
		t.Fatal(err)
	}
	r, err := events.DecodeRecordingJSON(b)
	if err != nil {
		t.Fatalf("DecodeRecordingJSON(%s) = %v; want the fixture valid", form, err)
	}
	return r.Steps
}

// writeLines writes steps to dir/name, one JSON step per line.
func writeLines(t *testing.T, dir, name string, steps []events.Step) string {
	t.Helper()
	var b []byte
	for _, s := range steps {
		line, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		b = append(append(b, line...), '\n')
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFormFixture(t *testing.T) {
	steps := formSteps(t)
	var actions []string
	kinds := map[string]int{}
	for i, s := range steps {
		actions = append(actions, s.Action)
		kinds[s.Enrichment.Kind]++
		if i > 0 {
			if d := s.TS - steps[i-1].TS; d < 0.049 || d > 0.201 {
				t.Errorf("step %d comes %.3fs after the one before; want a gap of 0.05-0.2s", i, d)
			}
		}
		rank := map[string]int{"id": 0, "name": 1, "label": 2, "role+text": 3, "xpath": 4}
		for j := 1; j < len(s.Enrichment.Selectors); j++ {
			if rank[s.Enrichment.Selectors[j-1].Strategy] >= rank[s.Enrichment.Selectors[j].Strategy] {
				t.Errorf("step %d's selectors %v are not ordered id > name > label > role+text", i, s.Enrichment.Selectors)
			}
		}
	}
	want := []string{"navigate", "fill", "fill", "fill", "select", "click", "submit", "click", "click"}
	if !reflect.DeepEqual(actions, want) {
		t.Errorf("%s actions = %v; want %v", form, actions, want)
	}
	if kinds["dom"] != 7 || kinds["none"] != 2 {
		t.Errorf("%s enrichment kinds = %v; want 7 dom and 2 none", form, kinds)
	}
}

func TestLoadFormats(t *testing.T) {
	dir := t.TempDir()
	steps := formSteps(t)
	minified, err := json.Marshal(events.Recording{RecordingID: "rec_1", Version: "1.0", Steps: steps})
	if err != nil {
		t.Fatal(err)
	}
	oneLine := filepath.Join(dir, "one_line.json")
	if err := os.WriteFile(oneLine, append(minified, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		path string
		want int
	}{
		{"recording", form, len(steps)},
		{"recording on one line", oneLine, len(steps)},
		{"lines named .jsonl", writeLines(t, dir, "form.jsonl", steps), len(steps)},
		{"lines named .json", writeLines(t, dir, "form_lines.json", steps), len(steps)},
		{"one step on one line", writeLines(t, dir, "one.json", steps[:1]), 1},
		{"blank lines between steps", blankLines(t, writeLines(t, dir, "gaps.jsonl", steps[:3])), 3},
	} {
		got, err := load(tc.path)
		if err != nil {
			t.Errorf("%s: load(%s) = %v; want %d steps", tc.name, tc.path, err, tc.want)
			continue
		}
		if len(got) != tc.want {
			t.Errorf("%s: load(%s) = %d steps; want %d", tc.name, tc.path, len(got), tc.want)
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], steps[i]) {
				t.Errorf("%s: step %d = %+v; want %+v", tc.name, i, got[i], steps[i])
				break
			}
		}
	}
}

// blankLines doubles every newline in the file at path.
func blankLines(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.ReplaceAll(string(b), "\n", "\n  \n"))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUnavailable(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte(" \n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, append([]byte(`{"steps": [`), bytes.Repeat([]byte(" "), events.MaxEventSize)...), 0o600); err != nil {
		t.Fatal(err)
	}
	m := func(name string) string { return filepath.Join("testdata", "malformed", name) }
	for _, tc := range []struct {
		path string
		opts Options
		want string // in the reason
	}{
		{filepath.Join(dir, "missing.json"), Options{}, "does not exist"},
		{dir, Options{}, "is a directory"},
		{empty, Options{}, "is empty"},
		{huge, Options{}, "one JSON step per line"},
		{m("not_json.json"), Options{}, "not valid JSON at byte 2"},
		{m("truncated.json"), Options{}, "ends inside a value"},
		{m("bad_action.json"), Options{}, "invalid steps[1].action: a value the schema does not allow"},
		{m("secret_with_raw.json"), Options{}, "invalid steps[1].value.raw: a secret carries no value"},
		{m("cursor_one.json"), Options{}, "invalid steps[2].cursor: must hold exactly two coordinates"},
		{m("bad_recording_id.json"), Options{}, `invalid recording_id: must look like "rec_<uuid>"`},
		{m("seq_string.json"), Options{}, "steps.seq has the wrong JSON type (want uint64)"},
		{m("seq_repeated.json"), Options{}, "invalid steps[3].seq: sequence numbers must strictly increase"},
		{m("steps_object.json"), Options{}, "steps has the wrong JSON type"},
		{m("version_2.json"), Options{}, "invalid version: a value the schema does not allow"},
		{m("no_steps.json"), Options{}, "holds no steps to play"},
		{m("bad_line.jsonl"), Options{}, "line 2 is not a valid step: invalid step.actor"},
		{form, Options{Speed: -1}, "Speed must be 0"},
	} {
		src := New("scripted", tc.path, []string{capture.ChannelFloor}, tc.opts)
		ok, reason := src.Available()
		if ok || !strings.Contains(reason, tc.want) {
			t.Errorf("Available() for %s = %v, %q; want false and a reason with %q", tc.path, ok, reason, tc.want)
		}
		if tc.opts.Speed == 0 && !strings.Contains(reason, tc.path) {
			t.Errorf("Available() for %s: reason %q does not name the file", tc.path, reason)
		}
		if strings.Contains(reason, planted) {
			t.Errorf("Available() for %s: reason %q repeats a value from the file", tc.path, reason)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := src.Start(ctx, capture.Session{RecordingID: "rec_1"}, &recSink{})
		cancel()
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), planted) {
			t.Errorf("Start for %s = %v; want an error with %q and no value from the file", tc.path, err, tc.want)
		}
		src.Stop()
	}
}

func TestGap(t *testing.T) {
	const max = DefaultMaxGap
	for _, tc := range []struct {
		prev, next, speed float64
		want              time.Duration
	}{
		{100, 100.5, 1, 500 * time.Millisecond},
		{100, 100.5, 2, 250 * time.Millisecond},
		{100, 100.5, 0.5, time.Second},
		{100, 100.5, 0, 0},
		{100, 99, 1, 0},  // out of order: no wait
		{100, 100, 1, 0}, // same instant
		{100, 160, 1, max},
		{100, 160, 10, max},
		{100, 160, 100, 600 * time.Millisecond},
	} {
		got := gap(tc.prev, tc.next, tc.speed, max)
		if d := got - tc.want; d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("gap(%v, %v, %v, %v) = %v; want %v", tc.prev, tc.next, tc.speed, max, got, tc.want)
		}
	}
}
