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
