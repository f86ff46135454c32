package audit

import (
	"fmt"
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
