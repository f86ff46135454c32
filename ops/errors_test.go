package ops

import (
	"encoding/json"
	"testing"
)

// TestSpecCodes holds the wire strings SPEC section 5 names: the contract,
// whatever the Go names.
func TestSpecCodes(t *testing.T) {
	for name, c := range map[string]struct{ got, want string }{
		"CodeInvalidRequest":              {CodeInvalidRequest, "INVALID_REQUEST"},
		"CodeUnknownType":                 {CodeUnknownType, "UNKNOWN_TYPE"},
		"CodeBusy":                        {CodeBusy, "BUSY"},
		"CodeInternal":                    {CodeInternal, "INTERNAL"},
		"CodeRecordingNotFound":           {CodeRecordingNotFound, "RECORDING_NOT_FOUND"},
		"CodeRecordingChannelUnavailable": {CodeRecordingChannelUnavailable, "RECORDING_CHANNEL_UNAVAILABLE"},
		"CodeRecordingAlreadyActive":      {CodeRecordingAlreadyActive, "RECORDING_ALREADY_ACTIVE"},
		"CodeConsentRequired":             {CodeConsentRequired, "CONSENT_REQUIRED"},
		"CodeInterpretationUnavailable":   {CodeInterpretationUnavailable, "INTERPRETATION_UNAVAILABLE"},
		"CodeReviewRequired":              {CodeReviewRequired, "REVIEW_REQUIRED"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q; want %q (SPEC section 5)", name, c.got, c.want)
		}
		if info, ok := Lookup(c.want); !ok || info.Group != "wire" {
			t.Errorf("Lookup(%q) = %+v, %v; want the wire group", c.want, info, ok)
		}
	}
}

func TestLookup(t *testing.T) {
	if len(Codes) == 0 || len(byCode) != len(Codes) {
		t.Fatalf("%d codes, %d distinct", len(Codes), len(byCode))
	}
	for _, c := range []struct {
		code        string
		known, busy bool
	}{{CodeBusy, true, true}, {CodeInvalidRequest, true, false}, {CodeComputerNoGrant, true, false}, {"NO_SUCH_CODE", false, false}} {
		info, ok := Lookup(c.code)
		if ok != c.known || info.Meaning == "" && c.known {
			t.Errorf("Lookup(%q) = %+v, %v; want known %v with a meaning", c.code, info, ok, c.known)
		}
		if got := (&Error{Code: c.code}).Retryable(); got != c.busy {
			t.Errorf("Error{%s}.Retryable() = %v; want %v", c.code, got, c.busy)
		}
	}
}

// TestErrorJSON: the one error shape, and the run error's older one
// ({code, grant_code, message}), which a daemon before the registry sends
// and OPS_REPLIES may still hold; malformed input is refused.
func TestErrorJSON(t *testing.T) {
	for _, c := range []struct {
		in   string
		want *Error
	}{
		{`{"code":"BUSY","message":"m"}`, &Error{Code: "BUSY", Message: "m"}},
		{`{"code":"PermissionDenied","message":"m","detail":"COMPUTER_NO_GRANT"}`, &Error{Code: "PermissionDenied", Message: "m", Detail: "COMPUTER_NO_GRANT"}},
		{`{"code":"StaleRef","grant_code":"COMPUTER_STALE_REVISION","message":"m"}`, &Error{Code: "StaleRef", Message: "m", Detail: "COMPUTER_STALE_REVISION"}},
		{`{"code":"StaleRef","grant_code":"OLD","detail":"NEW","message":"m"}`, &Error{Code: "StaleRef", Message: "m", Detail: "NEW"}},
		{`{"code":"X","message":"m","extra":1}`, &Error{Code: "X", Message: "m"}},
		{`{"code":5}`, nil},
		{`{"code":"X","grant_code":[]}`, nil},
		{`[]`, nil},
		{`"BUSY"`, nil},
		{`{`, nil},
	} {
		var got Error
		err := json.Unmarshal([]byte(c.in), &got)
		switch {
		case c.want == nil && err == nil:
			t.Errorf("Unmarshal(%s) = %+v; want an error", c.in, got)
		case c.want != nil && (err != nil || got != *c.want):
			t.Errorf("Unmarshal(%s) = %+v, %v; want %+v", c.in, got, err, *c.want)
		}
	}
	b, _ := json.Marshal(&Error{Code: "BUSY", Message: "m"})
	if string(b) != `{"code":"BUSY","message":"m"}` {
		t.Errorf("Marshal = %s; want no detail when empty", b)
	}
	if got := (&Error{Code: "StaleRef", Message: "m", Detail: "COMPUTER_STALE_REVISION"}).Error(); got != "StaleRef: m (COMPUTER_STALE_REVISION)" {
		t.Errorf("Error() = %q", got)
	}
	// A COMPUTER_RUN_RESULT an older daemon kept reads with its error whole.
	var res ComputerRunResult
	if bad := DecodePayload("COMPUTER_RUN_RESULT", []byte(`{"read_only":false,"error":{"code":"StaleRef","grant_code":"COMPUTER_STALE_REVISION","message":"look again"}}`), &res); bad != nil ||
		res.Error == nil || res.Error.Detail != "COMPUTER_STALE_REVISION" {
		t.Errorf("old COMPUTER_RUN_RESULT = %+v, %v", res.Error, bad)
	}
}

// FuzzErrorJSON: never panics; what decodes re-encodes and decodes the same.
func FuzzErrorJSON(f *testing.F) {
	for _, s := range []string{`{"code":"BUSY","message":"m"}`, `{"code":"StaleRef","grant_code":"G","message":"m"}`, `{"code":"A","message":"b","detail":"c"}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var e Error
		if json.Unmarshal(b, &e) != nil {
			return
		}
		out, err := json.Marshal(&e)
		if err != nil {
			t.Fatal(err)
		}
		var again Error
		if err := json.Unmarshal(out, &again); err != nil || again != e {
			t.Fatalf("%s -> %+v -> %s -> %+v, %v", b, e, out, again, err)
		}
	})
}
