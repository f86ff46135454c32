package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/vmihailenco/msgpack/v5"
)

// ErrMalformed is wrapped by every decoding error, so callers can tell bad
// input from a broken log.
var ErrMalformed = errors.New("malformed event")

// MaxEventSize bounds a single encoded step or recording; larger input is
// refused before decoding so a hostile peer cannot make the daemon allocate.
const MaxEventSize = 8 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// AppendMsgpack appends v's msgpack encoding to dst, the encoding used on the
// log. Field names are the JSON names of SPEC section 4.
func AppendMsgpack(dst []byte, v any) ([]byte, error) {
	// Steps and recordings, the values on the publish path, skip reflection.
	switch v := v.(type) {
	case *Step:
		if v != nil {
			return appendStep(dst, v), nil
		}
	case Step:
		return appendStep(dst, &v), nil
	case *Recording:
		if v != nil {
			return appendRecording(dst, v), nil
		}
	case Recording:
		return appendRecording(dst, &v), nil
	}
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	enc := msgpack.GetEncoder()
	defer msgpack.PutEncoder(enc)
	enc.Reset(buf)
	if err := enc.Encode(v); err != nil {
		return dst, fmt.Errorf("encode msgpack: %w", err)
	}
	return append(dst, buf.Bytes()...), nil
}

// DecodeStep decodes and validates one step from its msgpack encoding.
func DecodeStep(b []byte) (*Step, error) {
	var s Step
	if err := decodeMsgpack(b, &s); err != nil {
		return nil, fmt.Errorf("decode step: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("decode step: %w: %w", ErrMalformed, err)
	}
	return &s, nil
}

// DecodeStepJSON decodes and validates one step from JSON.
func DecodeStepJSON(b []byte) (*Step, error) {
	var s Step
	if err := decodeJSON(b, &s); err != nil {
		return nil, fmt.Errorf("decode step: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("decode step: %w: %w", ErrMalformed, err)
	}
	return &s, nil
}

// DecodeRecording decodes and validates a recording from msgpack.
func DecodeRecording(b []byte) (*Recording, error) {
	var r Recording
	if err := decodeMsgpack(b, &r); err != nil {
		return nil, fmt.Errorf("decode recording: %w", err)
	}
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("decode recording: %w: %w", ErrMalformed, err)
	}
	return &r, nil
}

// DecodeRecordingJSON decodes and validates a recording from JSON.
func DecodeRecordingJSON(b []byte) (*Recording, error) {
	var r Recording
	if err := decodeJSON(b, &r); err != nil {
		return nil, fmt.Errorf("decode recording: %w", err)
	}
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("decode recording: %w: %w", ErrMalformed, err)
	}
	return &r, nil
}

func decodeMsgpack(b []byte, v any) error {
	if err := checkSize(b); err != nil {
		return err
	}
	if err := checkMsgpack(b); err != nil {
		return fmt.Errorf("%w: msgpack: %w", ErrMalformed, err)
	}
	r := bytes.NewReader(b)
	dec := msgpack.GetDecoder()
	defer msgpack.PutDecoder(dec)
	dec.Reset(r)
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: msgpack: %w", ErrMalformed, err)
	}
	if r.Len() != 0 {
		return fmt.Errorf("%w: msgpack: %d trailing bytes after the value", ErrMalformed, r.Len())
	}
	return nil
}

func decodeJSON(b []byte, v any) error {
	if err := checkSize(b); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %w", ErrMalformed, err) // encoding/json's errors say "json:" already
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: json: trailing data after the value", ErrMalformed)
	}
	return nil
}

func checkSize(b []byte) error {
	switch {
	case len(b) == 0:
		return fmt.Errorf("%w: empty input", ErrMalformed)
	case len(b) > MaxEventSize:
		return fmt.Errorf("%w: %d bytes is over the %d-byte limit", ErrMalformed, len(b), MaxEventSize)
	}
	return nil
}
