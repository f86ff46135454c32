package audit

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckFieldsRefuses(t *testing.T) {
	tests := []struct {
		kind   string
		fields map[string]string
		want   error
		named  string // what the error must name
	}{
		{KindRecordingStarted, map[string]string{"url": "https://bank.example/login"}, ErrFieldNotAllowed, `"url"`},
		{KindRecordingStarted, map[string]string{FieldRecordingID: "rec_1", "text": "hunter2"}, ErrFieldNotAllowed, `"text"`},
		{KindReplayRow, map[string]string{FieldRecordingID: "rec_1"}, ErrFieldNotAllowed, `"recording_id"`},
		{KindConsentRefused, map[string]string{FieldReason: "the user said no thanks"}, ErrFieldNotAllowed, `"reason"`},
		{KindReplayRow, map[string]string{FieldRow: "12a"}, ErrFieldNotAllowed, `"row"`},
		{KindRecordingStopped, map[string]string{FieldRecordingID: "rec.1.>"}, ErrFieldNotAllowed, `"recording_id"`},
		{KindRecordingStopped, map[string]string{FieldRecordingID: ""}, ErrFieldNotAllowed, `"recording_id"`},
		{KindRecordingStarted, map[string]string{FieldChannels: "Browser"}, ErrFieldNotAllowed, `"channels"`},
		{KindReplayRun, map[string]string{FieldOutcome: strings.Repeat("a", maxFieldLen+1)}, ErrFieldNotAllowed, `"outcome"`},
		{"recording.typed", nil, ErrUnknownKind, `"recording.typed"`},
		{"", nil, ErrUnknownKind, `""`},
	}
	for _, tc := range tests {
		err := CheckFields(tc.kind, tc.fields)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.named) {
			t.Errorf("CheckFields(%q, %v) = %v; want %v naming %s", tc.kind, tc.fields, err, tc.want, tc.named)
		}
	}
}

func TestCheckFieldsAccepts(t *testing.T) {
	tests := []struct {
		kind   string
		fields map[string]string
	}{
		{KindConsentIssued, map[string]string{FieldMode: "copilot", FieldRoute: "screenshots_to_cloud", FieldChannels: "browser,desktop_ax,floor"}},
		{KindRecordingStopped, map[string]string{FieldRecordingID: "rec_6f1c-42", FieldStepCount: "120", FieldReason: "user_stopped"}},
		{KindReplayRow, map[string]string{FieldRunID: "run_9", FieldRow: "0", FieldOutcome: "unknown", FieldReason: "read_back_mismatch"}},
		{KindSkillBuilt, nil},
		{KindComputerAction, map[string]string{FieldGrantID: "grant_0a1b", FieldScope: "desktop", FieldIssuer: "agent", FieldTargetApp: "google-chrome",
			FieldRevision: "3", FieldAction: "set_value", FieldResult: "computer_secure_input_refused", FieldUID: "3-1-x9", FieldRole: "textbox", FieldTextLength: "12"}},
	}
	for _, tc := range tests {
		if err := CheckFields(tc.kind, tc.fields); err != nil {
			t.Errorf("CheckFields(%q, %v) = %v; want nil", tc.kind, tc.fields, err)
		}
	}
}

// Every kind's allow-list uses only the documented fields, so a new kind
// cannot quietly let content in.
func TestAllowListsUseKnownFields(t *testing.T) {
	known := map[string]bool{FieldRecordingID: true, FieldRunID: true, FieldChannels: true, FieldStepCount: true,
		FieldRow: true, FieldCount: true, FieldRoute: true, FieldMode: true, FieldReason: true, FieldOutcome: true,
		FieldSkillID: true, FieldRevision: true,
		FieldGrantID: true, FieldScope: true, FieldIssuer: true, FieldTargetApp: true, FieldCapture: true, FieldBudget: true,
		FieldAction: true, FieldResult: true, FieldUID: true, FieldRole: true, FieldTextLength: true, FieldWhy: true, FieldConfirmedBy: true, FieldHighWater: true}
	if got := len(Kinds()); got != 26 {
		t.Errorf("len(Kinds()) = %d; want 26", got)
	}
	for _, k := range Kinds() {
		for _, f := range AllowedFields(k) {
			if !known[f] {
				t.Errorf("AllowedFields(%q) has %q; want only the Field constants", k, f)
			}
		}
	}
}

func TestEntryRoundTrip(t *testing.T) {
	msgs, _ := buildChain(t, 4, testKey)
	for _, m := range msgs {
		e, err := DecodeEntry(m.Data)
		if err != nil {
			t.Fatalf("DecodeEntry(stream seq %d) = %v", m.StreamSeq, err)
		}
		if !authentic(testKey, m.Data, e) {
			t.Errorf("authentic(entry %d) = false; want true", e.Seq)
		}
		again, err := e.Marshal()
		if err != nil || string(again) != string(m.Data) {
			t.Errorf("Marshal(DecodeEntry(entry %d)) differs from its encoding (%v)", e.Seq, err)
		}
	}
}

func TestDecodeEntryRefuses(t *testing.T) {
	msgs, _ := buildChain(t, 2, testKey)
	good, _ := DecodeEntry(msgs[1].Data)
	edits := map[string]func(*Entry){
		"seq 0":         func(e *Entry) { e.Seq = 0 },
		"short mac":     func(e *Entry) { e.MAC = e.MAC[:8] },
		"short prev":    func(e *Entry) { e.Prev = e.Prev[:8] },
		"negative time": func(e *Entry) { e.Time = -1 },
		"content field": func(e *Entry) { e.Fields = map[string]string{"value": "4111 1111 1111 1111"} },
	}
	for name, edit := range edits {
		e := *good
		edit(&e)
		b, err := e.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeEntry(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("DecodeEntry(%s) = %v; want ErrMalformed", name, err)
		}
	}
	for _, b := range [][]byte{nil, {0xc0}, []byte("{}"), {0x80}} {
		if _, err := DecodeEntry(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("DecodeEntry(%x) = %v; want ErrMalformed", b, err)
		}
	}
}
