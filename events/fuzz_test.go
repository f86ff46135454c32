package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// The fuzz targets share one property: a decoder never panics; every error
// wraps ErrMalformed; and whatever decodes is valid and survives being
// encoded and decoded again unchanged.

// seedJSON adds every golden file of pattern to f as JSON.
func seedJSON(f *testing.F, pattern string) {
	for _, path := range goldenFiles(f, pattern) {
		f.Add(readFile(f, path))
	}
}

// seedMsgpack adds every golden file of pattern to f as msgpack, re-encoded
// by another writer (jsonToMsgpack) and by AppendMsgpack.
func seedMsgpack(f *testing.F, pattern string, decodeJSON func([]byte) (any, error)) {
	for _, path := range goldenFiles(f, pattern) {
		b := readFile(f, path)
		f.Add(jsonToMsgpack(f, b))
		v, err := decodeJSON(b)
		if err != nil {
			f.Fatalf("seed %s: %v", path, err)
		}
		mp, err := AppendMsgpack(nil, v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(mp)
	}
}

func wantMalformedOnly(t *testing.T, call string, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, ErrMalformed) {
		t.Fatalf("%s = %v; want nil or an error wrapping ErrMalformed", call, err)
	}
}

// remsgpack encodes v as msgpack and decodes it again with decode.
func remsgpack[T any](t *testing.T, v *T, decode func([]byte) (*T, error)) *T {
	t.Helper()
	b, err := AppendMsgpack(nil, v)
	if err != nil {
		t.Fatalf("AppendMsgpack(%+v) = %v", v, err)
	}
	if want, _ := msgpack.Marshal(v); !bytes.Equal(b, want) {
		t.Fatalf("AppendMsgpack(%+v) = % x; want the reflective encoder's % x", v, b, want)
	}
	back, err := decode(b)
	if err != nil {
		t.Fatalf("decode(AppendMsgpack(%+v)) = %v; want nil", v, err)
	}
	return back
}

// rejson encodes v as JSON and decodes it again with decode.
func rejson[T any](t *testing.T, v *T, decode func([]byte) (*T, error)) *T {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%+v) = %v", v, err)
	}
	back, err := decode(b)
	if err != nil {
		t.Fatalf("decode(%s) = %v; want nil", b, err)
	}
	return back
}

func wantSame[T any](t *testing.T, how string, got, want *T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %+v; want %+v", how, got, want)
	}
}

func FuzzDecodeStep(f *testing.F) {
	seedMsgpack(f, "steps/*.json", func(b []byte) (any, error) { return DecodeStepJSON(b) })
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeStep(b)
		wantMalformedOnly(t, "DecodeStep", err)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("DecodeStep returned a step whose Validate() = %v", err)
		}
		wantSame(t, "DecodeStep(AppendMsgpack(s))", remsgpack(t, s, DecodeStep), s)
	})
}

func FuzzDecodeStepJSON(f *testing.F) {
	seedJSON(f, "steps/*.json")
	seedJSON(f, "malformed/steps/*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeStepJSON(b)
		wantMalformedOnly(t, "DecodeStepJSON", err)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("DecodeStepJSON returned a step whose Validate() = %v", err)
		}
		wantSame(t, "DecodeStepJSON(json.Marshal(s))", rejson(t, s, DecodeStepJSON), s)
		wantSame(t, "DecodeStep(AppendMsgpack(s))", remsgpack(t, s, DecodeStep), s)
	})
}

func FuzzDecodeRecording(f *testing.F) {
	seedMsgpack(f, "recordings/*.json", func(b []byte) (any, error) { return DecodeRecordingJSON(b) })
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeRecording(b)
		wantMalformedOnly(t, "DecodeRecording", err)
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("DecodeRecording returned a recording whose Validate() = %v", err)
		}
		wantSame(t, "DecodeRecording(AppendMsgpack(r))", remsgpack(t, r, DecodeRecording), r)
	})
}

func FuzzDecodeRecordingJSON(f *testing.F) {
	seedJSON(f, "recordings/*.json")
	seedJSON(f, "malformed/recordings/*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeRecordingJSON(b)
		wantMalformedOnly(t, "DecodeRecordingJSON", err)
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("DecodeRecordingJSON returned a recording whose Validate() = %v", err)
		}
		wantSame(t, "DecodeRecordingJSON(json.Marshal(r))", rejson(t, r, DecodeRecordingJSON), r)
		wantSame(t, "DecodeRecording(AppendMsgpack(r))", remsgpack(t, r, DecodeRecording), r)
	})
}
