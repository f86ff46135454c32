package scripted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// maxFileSize bounds a trajectory file; a demonstration is a few hundred
// steps, a few hundred kilobytes.
const maxFileSize = 64 << 20

// fileError says why a trajectory file cannot be played. It names the file
// and the problem, never a field's value: a recording may hold what a person
// typed.
type fileError struct {
	file    string
	problem string
}

func (e *fileError) Error() string {
	return fmt.Sprintf("trajectory file %s %s", e.file, e.problem)
}

// load reads file: a recording in the SPEC section 4 shape, or one JSON step
// per line. A file named *.jsonl or *.ndjson is always read as lines.
func load(file string) ([]events.Step, error) {
	fail := func(format string, args ...any) error {
		return &fileError{file, fmt.Sprintf(format, args...)}
	}
	info, err := os.Stat(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fail("does not exist; check the path given to the scripted source")
	case err != nil:
		return nil, fail("cannot be read: %v", pathErrCause(err))
	case info.IsDir():
		return nil, fail("is a directory; give the path of a .json or .jsonl trajectory")
	case info.Size() > maxFileSize:
		return nil, fail("is %d bytes, over the %d-byte limit for a trajectory", info.Size(), maxFileSize)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fail("cannot be read: %v", pathErrCause(err))
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fail("is empty; it should hold a recording or one JSON step per line")
	}
	var steps []events.Step
	if isLines(file, b) {
		steps, err = parseLines(b)
	} else if len(b) > events.MaxEventSize {
		return nil, fail("is %d bytes, over the %d a recording document may be; write a long trajectory as one JSON step per line (.jsonl)", len(b), events.MaxEventSize)
	} else {
		var r *events.Recording
		if r, err = events.DecodeRecordingJSON(b); err == nil {
			steps = r.Steps
		} else {
			err = errors.New("is not a valid recording: " + describe(err))
		}
	}
	if err != nil {
		return nil, &fileError{file, err.Error()}
	}
	if len(steps) == 0 {
		return nil, fail("holds no steps to play")
	}
	return steps, nil
}

// isLines tells one JSON step per line from a recording. A recording is one
// JSON document, usually spread over many lines; its first line alone is not
// valid JSON unless the whole recording sits on that one line, and then it
// has "steps".
func isLines(file string, b []byte) bool {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".jsonl", ".ndjson":
		return true
	}
	lines := 0
	var first []byte
	for line := range bytes.Lines(b) {
		if line = bytes.TrimSpace(line); len(line) == 0 {
			continue
		}
		if lines == 0 {
			first = line
		}
		lines++
	}
	if first[0] != '{' || !json.Valid(first) {
		return false
	}
	if lines > 1 {
		return true
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(first, &keys) != nil {
		return false
	}
	_, isRecording := keys["steps"]
	return !isRecording
}

func parseLines(b []byte) ([]events.Step, error) {
	var steps []events.Step
	n := 0
	for line := range bytes.Lines(b) {
		n++
		if line = bytes.TrimSpace(line); len(line) == 0 {
			continue
		}
		s, err := events.DecodeStepJSON(line)
		if err != nil {
			return nil, fmt.Errorf("line %d is not a valid step: %s", n, describe(err))
		}
		steps = append(steps, *s)
	}
	return steps, nil
}

// describe says what is wrong with a decoding error, in words that carry no
// value from the input: schema errors keep the field and drop a quoted value,
// JSON errors keep the byte offset or the field and type.
func describe(err error) string {
	var se *events.SchemaError
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		// A problem that opens with a quote quotes the field's value
		// ("\"x\" is not one of the schema's values"); say it without.
		if strings.HasPrefix(se.Problem, `"`) {
			return "invalid " + se.Field + ": a value the schema does not allow"
		}
		return se.Error()
	case errors.As(err, &syntax):
		return fmt.Sprintf("not valid JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "the top-level value"
		}
		return fmt.Sprintf("%s has the wrong JSON type (want %s)", field, typ.Type)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends inside a value (is the file cut short?)"
	}
	return "does not follow the SPEC section 4 schema"
}

// pathErrCause drops the path from an *fs.PathError: fileError names the
// file already.
func pathErrCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
