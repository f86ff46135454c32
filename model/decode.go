package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// ErrNotOneObject means an answer did not hold exactly one JSON object of the
// expected shape.
var ErrNotOneObject = errors.New("model: the answer is not exactly one JSON object of the expected shape")

// maxNesting bounds how deep an answer's JSON may nest; no schema reprise asks
// for comes close.
const maxNesting = 64

// DecodeJSON extracts exactly one JSON object from a model's answer and
// decodes it into a T.
//
// The object is the text from the first '{' to the last '}', so a ```json
// fence and prose around the object are tolerated, but prose inside that
// span, a second object, fields T does not have, and keys repeated in one
// object (in any letter case) are refused: an answer is untrusted data, and
// anything ambiguous in it is an error rather than a guess.
func DecodeJSON[T any](answer string) (T, error) {
	var v T
	if len(answer) > MaxResponseBytes {
		return v, fmt.Errorf("%w: the answer is over the size cap", ErrNotOneObject)
	}
	start := strings.IndexByte(answer, '{')
	end := strings.LastIndexByte(answer, '}')
	if start < 0 || end < start {
		return v, fmt.Errorf("%w: no JSON object found", ErrNotOneObject)
	}
	span := []byte(answer[start : end+1])
	if err := checkKeys(span); err != nil {
		return v, fmt.Errorf("%w: %v", ErrNotOneObject, err)
	}
	dec := json.NewDecoder(bytes.NewReader(span))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		var zero T // not a half-decoded value a caller might use
		return zero, fmt.Errorf("%w: %v", ErrNotOneObject, err)
	}
	return v, nil
}

// checkKeys walks span's tokens: it must be one JSON value with nothing after
// it, no object may repeat a key, and nesting is bounded. Keys compare the way
// encoding/json matches them to fields, ignoring letter case, so "Name" and
// "name" cannot smuggle two values for one field.
func checkKeys(span []byte) error {
	type frame struct {
		keys      map[string]bool // nil for an array
		expectKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(span))
	dec.UseNumber()
	var stack []*frame
	seenRoot := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return errors.New("more than one JSON value, or text inside the object")
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if key, ok := tok.(string); ok && top != nil && top.expectKey {
			k := strings.Map(foldRune, key)
			if top.keys[k] {
				return errors.New("an object repeats a key")
			}
			top.keys[k] = true
			top.expectKey = false
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if top == nil && seenRoot {
				return errors.New("more than one JSON value")
			}
			if len(stack) == maxNesting {
				return errors.New("nested too deeply")
			}
			seenRoot = true
			f := &frame{}
			if tok == json.Delim('{') {
				f.keys, f.expectKey = map[string]bool{}, true
			}
			stack = append(stack, f)
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].keys != nil {
				stack[len(stack)-1].expectKey = true
			}
		default:
			if top == nil {
				return errors.New("more than one JSON value")
			}
			if top.keys != nil {
				top.expectKey = true
			}
		}
	}
}

// foldRune maps a rune to one member of its case class, as encoding/json's
// field matching does.
func foldRune(r rune) rune { return unicode.ToUpper(unicode.ToLower(r)) }
