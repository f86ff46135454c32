package audit

import (
	"errors"
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
