// Package interop moves work between reprise and the browser-automation
// tools people already use: it reads Chrome DevTools Recorder user flows
// and Selenium IDE projects into demonstrations (so a skill is generalized
// from them exactly as from recordings), and writes a skill back out as a
// Recorder flow, an @puppeteer/replay script or a Playwright test.
//
// Importing never drops what it cannot express: a step with no reprise
// equivalent is refused with its line and field, and a step reprise does by
// itself (a Tab between fields, a scroll) is absorbed with a note that says
// so. The package reads the files it is given and nothing else: no
// network, no log.
package interop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// MaxFile is the largest file Import reads: a flow of thousands of steps is
// a few hundred kilobytes.
const MaxFile = 8 << 20

// Formats Import reads.
const (
	FormatChromeRecorder = "chrome-recorder"
	FormatSide           = "selenium-ide"
)

// Flow is one imported demonstration: a Recorder flow, or one test of a
// Selenium IDE project.
type Flow struct {
	Format string
	// Title is the flow's or test's name, as the file gave it.
	Title string
	// Steps are in the trajectory schema, numbered from 1, with no frames:
	// nothing was captured, so there is no screenshot to keep.
	Steps []events.Step
	// Notes say what was absorbed and why, each naming its line.
	Notes []string
	// File is the file the flow was read from, by ImportFile.
	File string
	// guessed are the steps (by Seq) whose box state the tool did not
	// write: a plain click on a checkbox, taken to check it until Resolve
	// reads the box on the page.
	guessed []uint64
}

// Error is a refusal: the line of the file, the field there, and what is
// wrong. It never quotes a value: a flow's values may be personal data.
type Error struct {
	Line    int    // from 1; 0 when the file as a whole is wrong
	Field   string // a JSON path such as "steps[3].selectors"
	Problem string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Problem)
	return b.String()
}

// ErrUnknownFormat is returned for a file that is neither a Recorder flow
// nor a Selenium IDE project.
var ErrUnknownFormat = errors.New("not a Chrome DevTools Recorder flow (a JSON object with \"steps\") nor a Selenium IDE project (a .side JSON object with \"tests\")")

// Import reads a Recorder flow or a Selenium IDE project.
func Import(data []byte) ([]Flow, error) {
	if len(data) > MaxFile {
		return nil, &Error{Problem: fmt.Sprintf("the file is over %d MB", MaxFile>>20)}
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, jsonError(data, err, "")
	}
	switch {
	case probe["tests"] != nil && probe["steps"] == nil:
		return importSide(data)
	case probe["steps"] != nil:
		f, err := importChrome(data)
		if err != nil {
			return nil, err
		}
		return []Flow{*f}, nil
	}
	return nil, ErrUnknownFormat
}

// lineAt is the line of data holding byte offset off, from 1.
func lineAt(data []byte, off int64) int {
	off = max(0, min(off, int64(len(data))))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// jsonError turns a decoding error into an Error with its line. at is the
// JSON path of what was being decoded, base its offset in the file.
func jsonError(data []byte, err error, at string) *Error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return &Error{Line: lineAt(data, syn.Offset), Field: at, Problem: "not valid JSON: " + syn.Error()}
	case errors.As(err, &typ):
		field := at
		if typ.Field != "" {
			field = strings.TrimPrefix(at+"."+typ.Field, ".")
		}
		return &Error{Line: lineAt(data, typ.Offset), Field: field, Problem: fmt.Sprintf("must be %s, not a JSON %s", kindOf(typ.Type.Kind().String()), typ.Value)}
	}
	return &Error{Field: at, Problem: "not valid JSON: " + err.Error()}
}

func kindOf(k string) string {
	switch k {
	case "string":
		return "a string"
	case "slice", "array":
		return "a list"
	case "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	case "interface":
		return "a value"
	}
	return "a number"
}

// element is one item of a JSON list with the line it starts on.
type element struct {
	raw  json.RawMessage
	off  int64 // where it starts in the file, for the lists inside it
	line int
}

// listAt returns the items of the list under key in the object obj, which
// starts at byte base of data, each with its line.
func listAt(data []byte, obj json.RawMessage, base int64, key, at string) ([]element, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, &Error{Line: lineAt(data, base), Field: at, Problem: "must be an object"}
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, jsonError(data, err, at)
		}
		if t != key {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, jsonError(data, err, at)
			}
			continue
		}
		start := base + dec.InputOffset()
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return nil, &Error{Line: lineAt(data, start), Field: joinPath(at, key), Problem: "must be a list"}
		}
		var out []element
		// Lines are counted on from the last item, not from the file's
		// start: a list of thousands of items is read in one pass.
		lineOff, line := start, lineAt(data, start)
		for dec.More() {
			off := base + dec.InputOffset()
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, jsonError(data, err, fmt.Sprintf("%s[%d]", joinPath(at, key), len(out)))
			}
			// The offset is before the comma and spaces that lead to it.
			for off < int64(len(data)) && strings.ContainsRune(", \t\r\n", rune(data[off])) {
				off++
			}
			if off > lineOff && off <= int64(len(data)) {
				line += bytes.Count(data[lineOff:off], []byte("\n"))
				lineOff = off
			}
			out = append(out, element{raw: raw, off: off, line: line})
		}
		return out, nil
	}
	return nil, &Error{Line: lineAt(data, base), Field: joinPath(at, key), Problem: "is missing"}
}

func joinPath(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}
