package audit

import (
	"bytes"
	"testing"
)

// FuzzDecodeEntry: no input panics the decoder, and whatever it accepts is a
// valid entry that encodes back to something it decodes the same way.
func FuzzDecodeEntry(f *testing.F) {
	msgs, _ := buildChain(f, 4, testKey)
	for _, m := range msgs {
		f.Add(m.Data)
	}
	f.Add([]byte{})
	f.Add([]byte{0xc0})
	f.Add([]byte{0x81, 0xa3, 's', 'e', 'q', 0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0xdf, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := DecodeEntry(b)
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("DecodeEntry accepted an entry that fails Validate: %v", err)
		}
		enc, err := e.Marshal()
		if err != nil {
			t.Fatalf("Marshal(decoded entry) = %v", err)
		}
		again, err := DecodeEntry(enc)
		if err != nil {
			t.Fatalf("DecodeEntry(Marshal(e)) = %v", err)
		}
		if again.Seq != e.Seq || again.Kind != e.Kind || !bytes.Equal(again.MAC, e.MAC) || len(again.Fields) != len(e.Fields) {
			t.Fatalf("round trip changed the entry: %+v -> %+v", e, again)
		}
		if !bytes.Equal(computeMAC(testKey, again), computeMAC(testKey, e)) {
			t.Fatal("round trip changed the MAC input")
		}
	})
}

// FuzzVerifier: any sequence of messages gets a Report, never a panic, and
// an untouched chain with a fuzzed message appended is never reported OK
// unless that message is the authentic next entry (which the fuzzer cannot
// forge).
func FuzzVerifier(f *testing.F) {
	msgs, _ := buildChain(f, 3, testKey)
	f.Add(msgs[0].Data, "audit.recording.started")
	f.Add([]byte("x"), "audit.x")
	f.Fuzz(func(t *testing.T, b []byte, subject string) {
		in := append(append([]Message{}, msgs...), Message{StreamSeq: 4, Subject: subject, Data: b})
		r, err := VerifyEntries(in, testKey, Checkpoint{})
		if err != nil {
			t.Fatal(err)
		}
		if r.OK {
			t.Fatalf("VerifyEntries accepted a fuzzed 4th message %x on %q", b, subject)
		}
	})
}

// FuzzDecodePending: no file panics the decoder, and what it accepts is
// tagged under the key and holds only entries Append would take.
func FuzzDecodePending(f *testing.F) {
	for _, n := range []int{0, 1, 3} {
		b, err := EncodePending(testKey, samplePending(f, 1, n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"entries":[{"n":1,"t":0,"kind":"consent.used"}],"tag":""}`))
	f.Add([]byte(`{"entries":null,"tag":null}`))
	f.Add([]byte("{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ps, err := DecodePending(testKey, b)
		if err != nil {
			return
		}
		if err := checkPending(ps); err != nil {
			t.Fatalf("DecodePending accepted entries checkPending refuses: %v", err)
		}
		again, err := EncodePending(testKey, ps)
		if err != nil {
			t.Fatalf("EncodePending(decoded) = %v", err)
		}
		if _, err := DecodePending(testKey, again); err != nil {
			t.Fatalf("DecodePending(EncodePending(decoded)) = %v", err)
		}
		if _, err := DecodePending(otherKey, b); err == nil {
			t.Fatal("the same file decodes under another key")
		}
	})
}

// FuzzOpenHighWater: no bytes panic the decoder, and what it accepts is
// consistent and tagged under the key for that item.
func FuzzOpenHighWater(f *testing.F) {
	_, head := buildChain(f, 2, testKey)
	f.Add(SealHighWater(testKey, testMarkName, HighWater{}))
	f.Add(SealHighWater(testKey, testMarkName, HighWater{Head: head, Queued: 3, Written: 2}))
	f.Add([]byte(`{"seq":1,"mac":"","tag":""}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := OpenHighWater(testKey, testMarkName, b)
		if err != nil {
			return
		}
		if h.Written > h.Queued || (h.Head.Seq == 0) != (len(h.Head.MAC) == 0) {
			t.Fatalf("OpenHighWater accepted an inconsistent mark %+v", h)
		}
		if _, err := OpenHighWater(testKey, "audit-high-water-other", b); err == nil {
			t.Fatal("the same mark opens for another item")
		}
	})
}
