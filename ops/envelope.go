package ops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// MaxRequestSize bounds a request; a recording review is the largest.
const MaxRequestSize = 1 << 20

// MaxIDLength bounds a request id.
const MaxIDLength = 128

// Envelope is the wire envelope of every request and reply.
type Envelope struct {
	Type    string          `json:"type"`
	ID      string          `json:"id"`
	Payload json.RawMessage `json:"payload"`
}

// DecodeEnvelope parses a request envelope. The id is returned even when the
// rest is malformed, so the ERROR can carry it.
func DecodeEnvelope(b []byte) (Envelope, *Error) {
	var env Envelope
	if len(b) == 0 {
		return env, Errorf(CodeInvalidRequest, `empty request: send a JSON object {"type", "id", "payload"}`)
	}
	if len(b) > MaxRequestSize {
		return env, Errorf(CodeInvalidRequest, "request of %d bytes is over the %d-byte limit", len(b), MaxRequestSize)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || raw == nil {
		return env, Errorf(CodeInvalidRequest, `request is not a JSON object: send {"type", "id", "payload"}`)
	}
	// Take the id first, so an otherwise broken request still gets an
	// answer its sender can match.
	if v, ok := raw["id"]; ok {
		var id string
		if json.Unmarshal(v, &id) == nil && validID(id) {
			env.ID = id
		}
	}
	for k := range raw {
		if k != "type" && k != "id" && k != "payload" {
			return env, Errorf(CodeInvalidRequest, "unknown envelope field %s: the envelope has only type, id and payload", quote(k))
		}
	}
	if err := decodeString(raw, "type", &env.Type); err != nil {
		return env, err
	}
	var id string
	if err := decodeString(raw, "id", &id); err != nil {
		return env, err
	}
	if !validID(id) {
		if id == "" {
			return env, Errorf(CodeInvalidRequest, "id is empty: give every request a unique id")
		}
		return env, Errorf(CodeInvalidRequest, "id must be 1-%d printable characters without spaces", MaxIDLength)
	}
	env.Payload = raw["payload"]
	if len(env.Payload) == 0 || bytes.Equal(env.Payload, []byte("null")) {
		env.Payload = json.RawMessage("{}")
	}
	return env, nil
}

func decodeString(raw map[string]json.RawMessage, field string, dst *string) *Error {
	v, ok := raw[field]
	if !ok {
		return Errorf(CodeInvalidRequest, "%s is missing", field)
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return Errorf(CodeInvalidRequest, "%s must be a string", field)
	}
	return nil
}

func validID(id string) bool {
	if id == "" || len(id) > MaxIDLength {
		return false
	}
	for _, r := range id {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// DecodePayload strictly decodes payload into dst: an unknown field, a wrong
// type or trailing data is an INVALID_REQUEST naming the field.
func DecodePayload(typ string, payload []byte, dst any) *Error {
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return Errorf(CodeInvalidRequest, "%s payload: %s", typ, describeJSONError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return Errorf(CodeInvalidRequest, "%s payload: trailing data after the object", typ)
	}
	return nil
}

// describeJSONError turns encoding/json's errors into words about the
// payload's fields, without echoing values.
func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Sprintf("must be a JSON %s, not %s", jsonKind(te.Type.Kind().String()), te.Value)
		}
		return fmt.Sprintf("%s must be %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not valid JSON at byte %d", se.Offset)
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return "unknown field " + f
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "truncated JSON"
	}
	return "malformed JSON"
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	default:
		return "a number"
	}
}

func quote(s string) string {
	if len(s) > 32 {
		s = s[:32] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// EncodeReply builds a reply envelope.
func EncodeReply(typ, id string, payload any) ([]byte, error) {
	p, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", typ, err)
	}
	return json.Marshal(Envelope{Type: typ, ID: id, Payload: p})
}

// EncodeError builds an ERROR reply.
func EncodeError(id string, e *Error) []byte {
	b, err := EncodeReply(TypeError, id, e)
	if err != nil { // an *Error always encodes; this is belt and braces
		return []byte(`{"type":"ERROR","id":"","payload":{"code":"INTERNAL","message":"reply could not be encoded"}}`)
	}
	return b
}
