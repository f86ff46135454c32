package audit

import (
	"errors"
	"strings"
	"testing"
)

func TestEntryLine(t *testing.T) {
	t.Parallel()
	e := &Entry{Seq: 7, Time: 1700000000.25, Kind: "recording.started", Fields: map[string]string{"recording": "rec_1", "mode": "demonstration"}}
	want := "       7  2023-11-14T22:13:20.250Z  recording.started  mode=demonstration recording=rec_1"
	if got := e.Line(); got != want {
		t.Errorf("Line() = %q; want %q", got, want)
	}
	if got := (&Entry{Seq: 1, Kind: "a"}).Line(); got != "       1  1970-01-01T00:00:00.000Z  a" {
		t.Errorf("Line() without fields = %q; want no trailing spaces", got)
	}
	if l := NewTailLine(Message{StreamSeq: 3}, nil, errors.New("bad mac")); l.StreamSeq != 3 || l.Error != "bad mac" {
		t.Errorf("NewTailLine(not an entry) = %+v; want its seq and why", l)
	}
}

func TestTailLineString(t *testing.T) {
	t.Parallel()
	e := &Entry{Seq: 1, Kind: "a"}
	if got := NewTailLine(Message{StreamSeq: 9}, e, nil).String(); got != e.Line() {
		t.Errorf("String() of an entry = %q; want its Line %q", got, e.Line())
	}
	if got, want := NewTailLine(Message{StreamSeq: 3}, nil, errors.New("bad mac")).String(), "       3  (not an audit entry: bad mac)"; got != want {
		t.Errorf("String() of a message that is no entry = %q; want %q", got, want)
	}
}

func TestReportWriteText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		r    Report
		want string
	}{
		{Report{OK: true, Messages: 4, Head: Checkpoint{Seq: 4}}, "The audit log is intact: 4 entries, head at entry 4.\n"},
		{Report{Messages: 9, Problems: []Problem{{StreamSeq: 2, EntrySeq: 2, Kind: "gap", Detail: "entry 2 missing"}}, Omitted: 3},
			"The audit log was changed: 4 problem(s) in 9 messages.\n  stream seq 2, entry 2: gap: entry 2 missing\n  ... and 3 more (ALL lists the first 1)\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := tt.r.WriteText(&b, "ALL"); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("WriteText(%+v) = %q; want %q", tt.r, b.String(), tt.want)
		}
	}
}

func TestPrintTail(t *testing.T) {
	bad := errors.New("bad mac")
	var text, lines strings.Builder
	for _, out := range []struct {
		w      *strings.Builder
		asJSON bool
	}{{&text, false}, {&lines, true}} {
		if err := PrintTail(out.w, out.asJSON)(Message{StreamSeq: 3, Subject: "audit.x"}, nil, bad); err != nil {
			t.Fatalf("PrintTail(asJSON %v) = %v", out.asJSON, err)
		}
	}
	if got, want := text.String(), "       3  (not an audit entry: bad mac)\n"; got != want {
		t.Errorf("PrintTail(text) wrote %q; want %q", got, want)
	}
	if got, want := lines.String(), `{"stream_seq":3,"subject":"audit.x","error":"bad mac"}`+"\n"; got != want {
		t.Errorf("PrintTail(json) wrote %q; want %q", got, want)
	}
}
