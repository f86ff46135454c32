package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// Line is e on one line, as `reprise audit tail` prints it: seq, UTC time
// to the millisecond, kind, then the fields sorted by name.
func (e *Entry) Line() string {
	sec := int64(e.Time)
	t := time.Unix(sec, int64((e.Time-float64(sec))*1e9)).UTC()
	var b strings.Builder
	fmt.Fprintf(&b, "%8d  %s  %-18s", e.Seq, t.Format("2006-01-02T15:04:05.000Z"), e.Kind)
	for _, k := range slices.Sorted(maps.Keys(e.Fields)) {
		fmt.Fprintf(&b, " %s=%s", k, e.Fields[k])
	}
	return strings.TrimRight(b.String(), " ")
}

// TailLine is one message of the audit stream as JSON: its entry, or why
// it is not one.
type TailLine struct {
	StreamSeq uint64 `json:"stream_seq"`
	Subject   string `json:"subject"`
	Entry     *Entry `json:"entry,omitempty"`
	Error     string `json:"error,omitempty"`
}

// NewTailLine is what Tail's f is given, as a TailLine.
func NewTailLine(m Message, e *Entry, err error) TailLine {
	l := TailLine{StreamSeq: m.StreamSeq, Subject: m.Subject, Entry: e}
	if err != nil {
		l.Error = err.Error()
	}
	return l
}

// PrintTail is a TailFunc that prints each message's TailLine to out: a
// JSON object a line when asJSON, else its String.
func PrintTail(out io.Writer, asJSON bool) TailFunc {
	lines := json.NewEncoder(out)
	return func(m Message, e *Entry, err error) error {
		line := NewTailLine(m, e, err)
		if asJSON {
			return lines.Encode(line)
		}
		_, werr := fmt.Fprintln(out, line)
		return werr
	}
}

// String is l on one line, as `reprise audit tail` prints it: its entry's
// Line, or its stream seq and why it is not an entry.
func (l TailLine) String() string {
	if l.Entry == nil {
		return fmt.Sprintf("%8d  (not an audit entry: %s)", l.StreamSeq, l.Error)
	}
	return l.Entry.Line()
}

// WriteText writes r for a person: whether the chain is intact, and each
// problem kept, one a line. all is how to list the problems beyond those
// written (the caller's words: a flag, a link).
func (r Report) WriteText(w io.Writer, all string) error {
	if r.OK {
		_, err := fmt.Fprintf(w, "The audit log is intact: %d entries, head at entry %d.\n", r.Messages, r.Head.Seq)
		return err
	}
	fmt.Fprintf(w, "The audit log was changed: %d problem(s) in %d messages.\n", len(r.Problems)+r.Omitted, r.Messages)
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  %s\n", p)
	}
	if r.Omitted > 0 {
		fmt.Fprintf(w, "  ... and %d more (%s lists the first %d)\n", r.Omitted, all, len(r.Problems))
	}
	return nil
}
