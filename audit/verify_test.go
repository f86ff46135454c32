package audit

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

// where is the part of a Problem a test asserts: its kind and position.
type where struct {
	kind              string
	streamSeq, entSeq uint64
}

func (w where) String() string {
	return fmt.Sprintf("%s@stream %d/entry %d", w.kind, w.streamSeq, w.entSeq)
}

func wheres(ps []Problem) []where {
	out := []where{}
	for _, p := range ps {
		out = append(out, where{p.Kind, p.StreamSeq, p.EntrySeq})
	}
	return out
}

// TestVerifyEntriesTampering tampers with a chain of 10 entries in every
// way SPEC section 7 names and checks each is found where it happened.
func TestVerifyEntriesTampering(t *testing.T) {
	const n = 10
	tests := []struct {
		name   string
		tamper func(tb testing.TB, msgs []Message, head Checkpoint) ([]Message, Checkpoint)
		want   []where
	}{
		{"untouched", nil, nil},
		{"untouched with checkpoint", func(_ testing.TB, m []Message, h Checkpoint) ([]Message, Checkpoint) { return m, h }, nil},
		{"field changed", func(tb testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			editEntry(tb, m, 4, func(e *Entry) { e.Fields[FieldRecordingID] = "rec_other" })
			return m, Checkpoint{}
		}, []where{{ProblemModified, 5, 5}}},
		{"kind changed", func(tb testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			editEntry(tb, m, 7, func(e *Entry) { e.Kind = KindConsentIssued })
			m[7].Subject = "audit." + KindConsentIssued
			return m, Checkpoint{}
		}, []where{{ProblemModified, 8, 8}}},
		{"time changed", func(tb testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			editEntry(tb, m, 2, func(e *Entry) { e.Time += 3600 })
			return m, Checkpoint{}
		}, []where{{ProblemModified, 3, 3}}},
		{"subject changed", func(_ testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			m[3].Subject = "audit." + KindSkillBuilt
			return m, Checkpoint{}
		}, []where{{ProblemModified, 4, 4}}},
		{"extra msgpack key appended", func(tb testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			m[4].Data = withExtraKey(tb, m[4].Data)
			return m, Checkpoint{}
		}, []where{{ProblemModified, 5, 5}}},
		{"garbage in place of an entry", func(_ testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			m[4].Data = []byte("not an entry")
			return m, Checkpoint{}
		}, []where{{ProblemMalformed, 5, 0}}},
		{"mac bit flipped", func(tb testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			editEntry(tb, m, 4, func(e *Entry) { e.MAC[0] ^= 1 })
			return m, Checkpoint{}
		}, []where{{ProblemForged, 5, 5}}},
		{"one removed", func(_ testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			return renumber(slices.Delete(m, 4, 5)), Checkpoint{}
		}, []where{{ProblemRemoved, 5, 5}}},
		{"three removed", func(_ testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			return renumber(slices.Delete(m, 3, 6)), Checkpoint{}
		}, []where{{ProblemRemoved, 4, 4}}},
		{"first removed", func(_ testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			return renumber(m[1:]), Checkpoint{}
		}, []where{{ProblemRemoved, 1, 1}}},
		{"two swapped", func(_ testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			m[4], m[5] = m[5], m[4]
			return renumber(m), Checkpoint{}
		}, []where{{ProblemReordered, 6, 5}}},
		{"one moved later", func(_ testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			moved := m[2]
			m = slices.Insert(slices.Delete(m, 2, 3), 7, moved)
			return renumber(m), Checkpoint{}
		}, []where{{ProblemReordered, 8, 3}}},
		{"one copied later", func(_ testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			return renumber(slices.Insert(m, 7, m[4])), Checkpoint{}
		}, []where{{ProblemDuplicate, 8, 5}}},
		{"tail cut, checkpoint kept", func(_ testing.TB, m []Message, h Checkpoint) ([]Message, Checkpoint) {
			return m[:8], h
		}, []where{{ProblemTruncated, 9, 9}}},
		{"tail cut, no checkpoint: undetectable", func(_ testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			return m[:8], Checkpoint{}
		}, nil},
		{"last entry changed, checkpoint kept", func(tb testing.TB, m []Message, h Checkpoint) ([]Message, Checkpoint) {
			editEntry(tb, m, 9, func(e *Entry) { e.Fields = nil })
			return m, h
		}, []where{{ProblemModified, 10, 10}}},
		{"last entry changed, no checkpoint", func(tb testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			editEntry(tb, m, 9, func(e *Entry) { e.Fields = nil })
			return m, Checkpoint{}
		}, []where{{ProblemForged, 10, 10}}},
		{"forged entry appended", func(tb testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			return renumber(append(m, forge(tb, n+1, macOf(tb, m[n-1])))), Checkpoint{}
		}, []where{{ProblemForged, 11, 11}}},
		{"forged entry inserted", func(tb testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			return renumber(slices.Insert(m, 5, forge(tb, 6, macOf(tb, m[4])))), Checkpoint{}
		}, []where{{ProblemForged, 6, 6}}},
		{"forged entry in place of one", func(tb testing.TB, m []Message, _ Checkpoint) ([]Message, Checkpoint) {
			m[4] = forge(tb, 5, macOf(tb, m[3]))
			return renumber(m), Checkpoint{}
		}, []where{{ProblemForged, 5, 5}}},
		{"chain rewritten by a key holder", func(tb testing.TB, _ []Message, h Checkpoint) ([]Message, Checkpoint) {
			c, err := newChain(testKey, Checkpoint{})
			if err != nil {
				tb.Fatal(err)
			}
			return extendChain(tb, c, nil, n, time.Hour), h
		}, []where{{ProblemRewritten, 10, 10}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msgs, head := buildChain(t, n, testKey)
			cp := Checkpoint{}
			if tc.tamper != nil {
				msgs, cp = tc.tamper(t, msgs, head)
			}
			r, err := VerifyEntries(msgs, testKey, cp)
			if err != nil {
				t.Fatal(err)
			}
			if got := wheres(r.Problems); !slices.Equal(got, append([]where{}, tc.want...)) {
				t.Fatalf("VerifyEntries(%s) problems = %v; want %v\n%v", tc.name, got, tc.want, r.Problems)
			}
			if r.OK != (len(tc.want) == 0) {
				t.Errorf("VerifyEntries(%s).OK = %v with %d problems", tc.name, r.OK, len(tc.want))
			}
			if err := r.Err(); (err == nil) != r.OK || (err != nil && !errors.Is(err, ErrTampered)) {
				t.Errorf("Report.Err() = %v with OK %v", err, r.OK)
			}
		})
	}
}

func TestVerifyEntriesWrongKey(t *testing.T) {
	msgs, _ := buildChain(t, 5, testKey)
	r, err := VerifyEntries(msgs, otherKey, Checkpoint{})
	if err != nil {
		t.Fatal(err)
	}
	want := []where{{ProblemForged, 1, 1}, {ProblemForged, 2, 2}, {ProblemForged, 3, 3}, {ProblemForged, 4, 4}, {ProblemForged, 5, 5}}
	if got := wheres(r.Problems); !slices.Equal(got, want) || r.OK {
		t.Fatalf("VerifyEntries under another key = %v (ok %v); want %v", got, r.OK, want)
	}
	if _, err := VerifyEntries(msgs, []byte("short"), Checkpoint{}); err == nil {
		t.Error("VerifyEntries with a 5-byte key = nil error; want a refusal")
	}
}

func TestVerifyEntriesEmpty(t *testing.T) {
	r, err := VerifyEntries(nil, testKey, Checkpoint{})
	if err != nil || !r.OK || r.Head.Seq != 0 {
		t.Fatalf("VerifyEntries(nil) = %+v, %v; want OK with an empty head", r, err)
	}
	r, _ = VerifyEntries(nil, testKey, Checkpoint{Seq: 3, MAC: make([]byte, MACSize)})
	if got, want := wheres(r.Problems), []where{{ProblemTruncated, 1, 1}}; !slices.Equal(got, want) {
		t.Fatalf("VerifyEntries(nil, checkpoint 3) = %v; want %v", got, want)
	}
}

// withExtraKey re-encodes an entry's map with one more key the decoder
// ignores, leaving every MACed field as it was.
func withExtraKey(tb testing.TB, data []byte) []byte {
	tb.Helper()
	var m map[string]any
	if err := msgpack.Unmarshal(data, &m); err != nil {
		tb.Fatal(err)
	}
	m["note"] = "the user typed hunter2"
	out, err := msgpack.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestLostMessagesAreDamage: messages the store could not read are
// tampering, reported as such even when the chain around them links up.
func TestLostMessagesAreDamage(t *testing.T) {
	key := make([]byte, MinKeySize)
	v, err := NewVerifier(key, Checkpoint{})
	if err != nil {
		t.Fatal(err)
	}
	v.Lost([]uint64{7, 5, 6})
	r := v.Report()
	if r.OK || len(r.Problems) != 1 || r.Problems[0].Kind != ProblemDamaged || r.Problems[0].StreamSeq != 5 {
		t.Fatalf("report %+v; want one damaged problem from stream seq 5", r)
	}
}
