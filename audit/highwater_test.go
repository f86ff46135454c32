package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
)

const testMarkName = "audit-high-water-0123456789abcdef"

func TestHighWaterRoundTrip(t *testing.T) {
	_, head := buildChain(t, 3, testKey)
	for _, h := range []HighWater{{}, {Head: head}, {Head: head, Queued: 7, Written: 5}} {
		got, err := OpenHighWater(testKey, testMarkName, SealHighWater(testKey, testMarkName, h))
		if err != nil || got.Head.Seq != h.Head.Seq || !bytes.Equal(got.Head.MAC, h.Head.MAC) || got.Queued != h.Queued || got.Written != h.Written {
			t.Errorf("OpenHighWater(SealHighWater(%+v)) = %+v, %v; want it back", h, got, err)
		}
	}
}

func TestOpenHighWaterRefuses(t *testing.T) {
	_, head := buildChain(t, 3, testKey)
	good := SealHighWater(testKey, testMarkName, HighWater{Head: head, Queued: 2, Written: 1})
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	tests := []struct {
		name string
		key  []byte
		item string
		b    []byte
		want error
	}{
		{"another key", otherKey, testMarkName, good, ErrHighWaterForged},
		{"another data dir's item", testKey, "audit-high-water-fedcba9876543210", good, ErrHighWaterForged},
		{"seq lowered", testKey, testMarkName, edit(func(m map[string]any) { m["seq"] = 2 }), ErrHighWaterForged},
		{"queued lowered", testKey, testMarkName, edit(func(m map[string]any) { m["queued"] = 1 }), ErrHighWaterForged},
		{"no tag", testKey, testMarkName, edit(func(m map[string]any) { delete(m, "tag") }), ErrHighWaterForged},
		{"written past queued", testKey, testMarkName, edit(func(m map[string]any) { m["written"] = 3 }), ErrHighWaterMalformed},
		{"short mac", testKey, testMarkName, edit(func(m map[string]any) { m["mac"] = "AAAA" }), ErrHighWaterMalformed},
		{"unknown field", testKey, testMarkName, edit(func(m map[string]any) { m["note"] = "x" }), ErrHighWaterMalformed},
		{"trailing data", testKey, testMarkName, append(bytes.Clone(good), " {}"...), ErrHighWaterMalformed},
		{"not json", testKey, testMarkName, []byte("seq=9"), ErrHighWaterMalformed},
		{"empty", testKey, testMarkName, nil, ErrHighWaterMalformed},
		{"huge", testKey, testMarkName, bytes.Repeat([]byte(" "), maxHighWaterSize+1), ErrHighWaterMalformed},
	}
	for _, tc := range tests {
		if _, err := OpenHighWater(tc.key, tc.item, tc.b); !errors.Is(err, tc.want) {
			t.Errorf("OpenHighWater(%s) = %v; want %v", tc.name, err, tc.want)
		}
	}
}

// TestVerifyAgainstHighWater: an older genuine checkpoint restored with a
// cut stream passes the checkpoint; the high-water mark says rolled back.
func TestVerifyAgainstHighWater(t *testing.T) {
	const n = 10
	msgs, head := buildChain(t, n, testKey)
	old := Checkpoint{Seq: 6, MAC: macOf(t, msgs[5])}
	tests := []struct {
		name string
		msgs []Message
		cp   Checkpoint
		hw   Checkpoint
		want []where
	}{
		{"untouched", msgs, head, head, nil},
		{"mark behind the chain (its last write failed)", msgs, head, old, nil},
		{"rolled back with its older genuine checkpoint", msgs[:6], old, head, []where{{ProblemRolledBack, 7, 7}}},
		{"rolled back, checkpoint kept", msgs[:6], head, head, []where{{ProblemTruncated, 7, 7}}},
		{"rolled back to nothing", nil, Checkpoint{}, head, []where{{ProblemRolledBack, 1, 1}}},
		{"rewritten by a key holder", rewritten(t, n), Checkpoint{}, head, []where{{ProblemRewritten, 10, 10}}},
		{"rewritten behind the mark", rewritten(t, n), Checkpoint{}, old, []where{{ProblemRewritten, 6, 6}}},
		{"last entry changed, the mark vouches", lastChanged(t, msgs), Checkpoint{}, head, []where{{ProblemModified, 10, 10}}},
	}
	for _, tc := range tests {
		r, err := VerifyEntries(tc.msgs, testKey, tc.cp, AgainstHighWater(tc.hw))
		if err != nil {
			t.Fatal(err)
		}
		if got := wheres(r.Problems); !slices.Equal(got, append([]where{}, tc.want...)) || r.OK != (len(tc.want) == 0) {
			t.Errorf("VerifyEntries(%s) = ok %v, %v; want %v", tc.name, r.OK, got, tc.want)
		}
	}
}

func rewritten(tb testing.TB, n int) []Message {
	c, err := newChain(testKey, Checkpoint{})
	if err != nil {
		tb.Fatal(err)
	}
	return extendChain(tb, c, nil, n, time.Hour)
}

func lastChanged(tb testing.TB, msgs []Message) []Message {
	m := slices.Clone(msgs)
	editEntry(tb, m, len(m)-1, func(e *Entry) { e.Fields = nil })
	return m
}

// TestLossEntriesAreReported: what the daemon found lost at start, written
// into the chain, is reported by every later verification.
func TestLossEntriesAreReported(t *testing.T) {
	tests := []struct {
		kind   string
		fields map[string]string
		want   string
	}{
		{KindCheckpointLost, map[string]string{FieldReason: CheckpointRolledBack, FieldCount: "3", FieldHighWater: "9"}, ProblemRolledBack},
		{KindCheckpointLost, map[string]string{FieldReason: CheckpointTruncated, FieldCount: "3", FieldHighWater: "9"}, ProblemTruncated},
		{KindCheckpointLost, map[string]string{FieldReason: CheckpointMissing, FieldCount: "3"}, ProblemCheckpointLost},
		{KindCheckpointLost, map[string]string{FieldReason: HighWaterForged, FieldCount: "3"}, ProblemCheckpointLost},
		{KindPendingLost, map[string]string{FieldReason: PendingMissing, FieldCount: "2"}, ProblemPendingLost},
		{KindPendingLost, map[string]string{FieldReason: PendingUnreadable, FieldCount: "0"}, ProblemPendingLost},
	}
	for _, tc := range tests {
		c, err := newChain(testKey, Checkpoint{})
		if err != nil {
			t.Fatal(err)
		}
		msgs := extendChain(t, c, nil, 3, 0)
		e, err := c.next(t0, tc.kind, tc.fields)
		if err != nil {
			t.Fatal(err)
		}
		c.advance(e)
		data, _ := e.Marshal()
		msgs = append(msgs, Message{StreamSeq: 4, Subject: events.AuditSubject(tc.kind), Data: data})
		msgs = extendChain(t, c, msgs, 2, 0)
		r, err := VerifyEntries(msgs, testKey, c.head, AgainstHighWater(c.head))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := wheres(r.Problems), []where{{tc.want, 4, 4}}; !slices.Equal(got, want) || r.Problems[0].Detail == "" {
			t.Errorf("VerifyEntries(chain with %s %v) = %v; want %v", tc.kind, tc.fields, r.Problems, want)
		}
	}
}

// TestVerifyRolledBackStream rolls the real AUDIT stream back to an older
// copy, with the checkpoint that copy had: only the high-water mark sees it.
func TestVerifyRolledBackStream(t *testing.T) {
	_, _, js := startJS(t)
	l := openLog(t, js, testKey)
	appendN(t, l, 3)
	saved := l.Head()
	var kept []*jetstream.RawStreamMsg
	for seq := uint64(1); seq <= 3; seq++ {
		m, err := mustStream(t, js).GetMsg(testCtx(t), seq)
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, m)
	}
	appendN(t, l, 4)
	mark := l.Head()

	if err := js.DeleteStream(testCtx(t), events.StreamAudit); err != nil {
		t.Fatal(err)
	}
	if err := events.EnsureStores(testCtx(t), js); err != nil {
		t.Fatal(err)
	}
	for _, m := range kept {
		publishRaw(t, js, Message{Subject: m.Subject, Data: m.Data})
	}
	if r := verifyOK(t, js, saved, 3); r.Head.Seq != 3 {
		t.Fatalf("Verify against the restored checkpoint: head %d; want 3 (intact: why the mark is needed)", r.Head.Seq)
	}
	r, err := Verify(testCtx(t), js, testKey, saved, AgainstHighWater(mark))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := wheres(r.Problems), []where{{ProblemRolledBack, 4, 4}}; r.OK || !slices.Equal(got, want) {
		t.Fatalf("Verify against the mark = %v; want %v", r.Problems, want)
	}
}
