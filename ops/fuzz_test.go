package ops

import (
	"encoding/json"
	"testing"
)

var seeds = []string{
	`{"type":"REQUEST_RECORDING_CONSENT","id":"1","payload":{"mode":"demonstration","interpretation_route":"extract_then_cloud","channels":["floor","browser"]}}`,
	`{"type":"START_RECORDING","id":"2","payload":{"mode":"copilot","interpretation_route":"extract_then_cloud","channels":["floor"],"consent_token":"a.b"}}`,
	`{"type":"STOP_RECORDING","id":"3","payload":{"recording_id":"rec_1"}}`,
	`{"type":"RECORDING_FETCH","id":"4","payload":{"recording_id":"rec_1"}}`,
	`{"type":"APPLY_RECORDING_REVIEW","id":"5","payload":{"recording_id":"rec_1","removed_step_seqs":[2,5],"redacted_step_seqs":[3]}}`,
	`{"type":"X","id":"6"}`, `{}`, `[]`, `null`, `{"id":"\u0000"}`,
}

// FuzzDecodeEnvelope: never panics; an accepted envelope has a valid id, a
// type, and a payload that is JSON.
func FuzzDecodeEnvelope(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		env, bad := DecodeEnvelope(b)
		if bad != nil {
			if bad.Code == "" || bad.Message == "" {
				t.Fatalf("error without code or message: %+v", bad)
			}
			if env.ID != "" && !validID(env.ID) {
				t.Fatalf("refusal echoes an invalid id %q", env.ID)
			}
			return
		}
		if !validID(env.ID) || env.Type == "" || !json.Valid(env.Payload) {
			t.Fatalf("accepted %q as %+v", b, env)
		}
	})
}

// FuzzDecodePayloads runs every payload decoder: never panics, and what is
// accepted re-encodes and decodes to the same value.
func FuzzDecodePayloads(f *testing.F) {
	for _, s := range seeds {
		if env, bad := DecodeEnvelope([]byte(s)); bad == nil {
			f.Add([]byte(env.Payload))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		roundTrip(t, b, &ConsentRequest{}, func() any { return &ConsentRequest{} })
		roundTrip(t, b, &StartRequest{}, func() any { return &StartRequest{} })
		roundTrip(t, b, &RecordingRef{}, func() any { return &RecordingRef{} })
		roundTrip(t, b, &ReviewRequest{}, func() any { return &ReviewRequest{} })
	})
}

func roundTrip(t *testing.T, b []byte, dst any, fresh func() any) {
	t.Helper()
	if bad := DecodePayload("T", b, dst); bad != nil {
		if bad.Code != CodeInvalidRequest || bad.Message == "" {
			t.Fatalf("payload error %+v", bad)
		}
		return
	}
	again, err := json.Marshal(dst)
	if err != nil {
		t.Fatal(err)
	}
	back := fresh()
	if bad := DecodePayload("T", again, back); bad != nil {
		t.Fatalf("re-encoded %s does not decode: %v", again, bad)
	}
	b1, _ := json.Marshal(back)
	if string(b1) != string(again) {
		t.Fatalf("round trip %s != %s", b1, again)
	}
}
