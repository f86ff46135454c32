package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

func samplePending(tb testing.TB, first uint64, n int) []Pending {
	tb.Helper()
	var ps []Pending
	for i := range n {
		kind, fields := sampleEntry(i)
		p, err := NewPending(first+uint64(i), t0.Add(time.Duration(i)*time.Microsecond), kind, fields)
		if err != nil {
			tb.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func TestPendingRoundTrip(t *testing.T) {
	for _, ps := range [][]Pending{nil, samplePending(t, 1, 1), samplePending(t, 41, 5)} {
		b, err := EncodePending(testKey, ps)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodePending(testKey, b)
		if err != nil {
			t.Fatalf("DecodePending(EncodePending(%d entries)) = %v", len(ps), err)
		}
		if len(got) != len(ps) {
			t.Fatalf("DecodePending = %d entries; want %d", len(got), len(ps))
		}
		for i := range ps {
			if got[i].N != ps[i].N || !got[i].Time().Equal(ps[i].Time()) || got[i].Kind != ps[i].Kind || len(got[i].Fields) != len(ps[i].Fields) {
				t.Errorf("entry %d came back as %+v; want %+v", i, got[i], ps[i])
			}
		}
	}
}

func TestDecodePendingRefuses(t *testing.T) {
	good, err := EncodePending(testKey, samplePending(t, 1, 3))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	entry := func(m map[string]any, i int) map[string]any { return m["entries"].([]any)[i].(map[string]any) }
	tests := []struct {
		name string
		key  []byte
		b    []byte
		want error
	}{
		{"another key", otherKey, good, ErrPendingForged},
		{"an entry added", testKey, edit(func(m map[string]any) {
			m["entries"] = append(m["entries"].([]any), map[string]any{"n": 4, "t": 1, "kind": KindConsentUsed})
		}), ErrPendingForged},
		{"an entry dropped", testKey, edit(func(m map[string]any) { m["entries"] = m["entries"].([]any)[1:] }), ErrPendingForged},
		{"a time changed", testKey, edit(func(m map[string]any) { entry(m, 1)["t"] = 5 }), ErrPendingForged},
		{"a field changed", testKey, edit(func(m map[string]any) { entry(m, 0)["fields"].(map[string]any)[FieldRecordingID] = "rec_x" }), ErrPendingForged},
		{"content slipped in", testKey, edit(func(m map[string]any) { entry(m, 0)["fields"].(map[string]any)["text"] = "hunter2" }), ErrPendingMalformed},
		{"unknown kind", testKey, edit(func(m map[string]any) { entry(m, 0)["kind"] = "keystroke" }), ErrPendingMalformed},
		{"numbers with a gap", testKey, edit(func(m map[string]any) { entry(m, 2)["n"] = 9 }), ErrPendingMalformed},
		{"numbered 0", testKey, edit(func(m map[string]any) { entry(m, 0)["n"] = 0 }), ErrPendingMalformed},
		{"negative time", testKey, edit(func(m map[string]any) { entry(m, 0)["t"] = -1 }), ErrPendingMalformed},
		{"unknown field", testKey, edit(func(m map[string]any) { m["note"] = 1 }), ErrPendingMalformed},
		{"trailing data", testKey, append(bytes.Clone(good), "[]"...), ErrPendingMalformed},
		{"truncated", testKey, good[:len(good)/2], ErrPendingMalformed},
		{"not json", testKey, []byte("\x00\x01"), ErrPendingMalformed},
		{"empty", testKey, nil, ErrPendingMalformed},
	}
	for _, tc := range tests {
		if _, err := DecodePending(tc.key, tc.b); !errors.Is(err, tc.want) {
			t.Errorf("DecodePending(%s) = %v; want %v", tc.name, err, tc.want)
		}
	}
	if _, err := EncodePending(testKey, samplePending(t, 1, MaxPending+1)); !errors.Is(err, ErrPendingMalformed) {
		t.Errorf("EncodePending(%d entries) = %v; want a refusal", MaxPending+1, err)
	}
	if _, err := NewPending(1, t0, KindRecordingStopped, map[string]string{"url": "https://bank.example"}); !errors.Is(err, ErrFieldNotAllowed) {
		t.Errorf("NewPending with a url = %v; want ErrFieldNotAllowed", err)
	}
}

// A kept entry is written with the time it happened, and Is recognizes it
// in the chain.
func TestPendingWrittenAt(t *testing.T) {
	_, _, js := startJS(t)
	l := openLog(t, js, testKey)
	appendN(t, l, 2)
	p := samplePending(t, 1, 3)[2]
	if err := l.AppendAt(testCtx(t), p.Time(), p.Kind, p.Fields); err != nil {
		t.Fatal(err)
	}
	last, err := l.Last(testCtx(t))
	if err != nil || last == nil || last.Seq != 3 || !p.Is(last) {
		t.Fatalf("Last() = %+v, %v; want entry 3, the kept entry %+v", last, err, p)
	}
	if other := samplePending(t, 1, 2)[1]; other.Is(last) {
		t.Errorf("Pending %+v Is entry %+v; want false", other, last)
	}
	if again, err := openLog(t, js, testKey).Last(testCtx(t)); err != nil || !p.Is(again) {
		t.Errorf("after Open, Last() = %+v, %v; want the kept entry", again, err)
	}
	if empty, err := openLog(t, startJSOnly(t), testKey).Last(testCtx(t)); err != nil || empty != nil {
		t.Errorf("Last() of an empty chain = %+v, %v; want nil", empty, err)
	}
	verifyOK(t, js, l.Head(), 3)
}

func startJSOnly(tb testing.TB) jetstream.JetStream {
	_, _, js := startJS(tb)
	return js
}
