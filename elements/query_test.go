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
