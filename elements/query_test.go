package elements

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/selector"
)

func TestRun(t *testing.T) {
	src := &fake{tree: orders()}
	l, err := Run(context.Background(), src, Query{Limit: 2})
	if err != nil || len(l.Elements) != 2 || l.Match != nil {
		t.Errorf("Run(a list of 2) = %+v, %v; want 2 elements", l, err)
	}
	l, err = Run(context.Background(), src, Query{Match: &selector.Selector{Role: "button", Name: "Save"}, Limit: 1})
	if CodeOf(err) != ops.CodeSelectorAmbiguous || l.Match == nil || len(l.Elements) != 2 {
		t.Errorf("Run(an ambiguous match) = %+v, %v; want both matches listed past the limit, and SELECTOR_AMBIGUOUS", l, err)
	}
}

// writer cancels the watch after n lines.
type writer struct {
	b      strings.Builder
	n      int
	cancel func()
}

func (w *writer) Write(p []byte) (int, error) {
	w.b.Write(p)
	if w.n--; w.n == 0 {
		w.cancel()
	}
	return len(p), nil
}

func TestWatchJSON(t *testing.T) {
	src := &fake{tree: orders(), err: errors.New("bus gone")}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &writer{n: 1, cancel: cancel}
	if err := WatchJSON(ctx, src, 10, time.Millisecond, w); err != nil {
		t.Fatal(err)
	}
	var line struct{ Error ops.Error }
	if err := json.Unmarshal([]byte(w.b.String()), &line); err != nil || line.Error.Code != ops.CodeInternal || !strings.Contains(line.Error.Message, "bus gone") {
		t.Errorf("WatchJSON of a failed read wrote %q (%v); want one error line", w.b.String(), err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	w = &writer{n: 1, cancel: cancel}
	if err := WatchJSON(ctx, &fake{tree: orders()}, 10, time.Millisecond, w); err != nil {
		t.Fatal(err)
	}
	var l Listing
	if err := json.Unmarshal([]byte(w.b.String()), &l); err != nil || len(l.Elements) != 5 || strings.Count(w.b.String(), "\n") != 1 {
		t.Errorf("WatchJSON wrote %q (%v); want one line, the listing", w.b.String(), err)
	}
}

// TestPrintAndWriteError: an ambiguous match is printed once, in the
// listing's JSON, and the error says so; a failure before any listing is
// written as the error alone.
func TestPrintAndWriteError(t *testing.T) {
	save := &selector.Selector{Role: "button", Name: "Save"}
	var b strings.Builder
	err := Print(context.Background(), &fake{tree: orders()}, Query{Match: save, Limit: 10}, true, "--limit", &b)
	var l Listing
	if jerr := json.Unmarshal([]byte(b.String()), &l); jerr != nil || l.Error == nil || l.Error.Code != ops.CodeSelectorAmbiguous || len(l.Elements) != 2 {
		t.Errorf("Print(ambiguous, JSON) wrote %q (%v); want both matches and the error", b.String(), jerr)
	}
	if !errors.As(err, new(Printed)) || CodeOf(err) != ops.CodeSelectorAmbiguous {
		t.Errorf("Print(ambiguous, JSON) = %v; want it Printed, SELECTOR_AMBIGUOUS", err)
	}
	b.Reset()
	if werr := WriteError(&b, err); werr != nil || b.Len() != 0 {
		t.Errorf("WriteError(a Printed error) wrote %q, %v; want nothing", b.String(), werr)
	}
	if werr := WriteError(&b, errors.New("no display")); werr != nil || !strings.Contains(b.String(), `"code": "INTERNAL"`) {
		t.Errorf("WriteError(a plain error) wrote %q, %v; want an INTERNAL error object", b.String(), werr)
	}
	b.Reset()
	err = Print(context.Background(), &fake{tree: orders()}, Query{Match: save, Limit: 10}, false, "--limit", &b)
	if CodeOf(err) != ops.CodeSelectorAmbiguous || errors.As(err, new(Printed)) || !strings.Contains(b.String(), "Save") {
		t.Errorf("Print(ambiguous, text) = %v after %q; want the listing and the error to print", err, b.String())
	}
}
