package elements

import (
	"context"
	"errors"
	"image"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/selector"
)

// fake is a Source over a fixed tree; reads counts the reads, and change,
// when set, edits the tree before a read.
type fake struct {
	mu     sync.Mutex
	tree   selector.Tree
	reads  int
	change func(n int, t selector.Tree) selector.Tree
	err    error
}

func (*fake) Name() string { return "desktop" }

func (f *fake) Read(_ context.Context, limit int) (string, selector.Tree, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	if f.change != nil {
		f.tree = f.change(f.reads, f.tree)
	}
	if f.err != nil {
		return "", nil, false, f.err
	}
	t := f.tree
	if len(t) > limit {
		return "Orders", t[:limit], true, nil
	}
	return "Orders", t, false, nil
}

func orders() selector.Tree {
	r := image.Rect
	return selector.Tree{
		{Role: "window", Name: "Orders", Parent: -1, Label: -1, Bounds: r(0, 0, 400, 300)},
		{Role: "group", Name: "Billing", Parent: 0, Label: -1, Bounds: r(10, 10, 390, 140)},
		{Role: "button", Name: "Save", Parent: 1, Label: -1, Bounds: r(20, 100, 80, 130), Path: "frame[Orders]/panel[Billing]/push button[Save]"},
		{Role: "group", Name: "Shipping", Parent: 0, Label: -1, Bounds: r(10, 150, 390, 290)},
		{Role: "button", Name: "Save", Parent: 3, Label: -1, Bounds: r(20, 250, 80, 280)},
	}
}

func TestListAndLimit(t *testing.T) {
	l, err := List(context.Background(), &fake{tree: orders()}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Elements) != 3 || !l.Truncated || l.Window != "Orders" || l.Source != "desktop" {
		t.Fatalf("List = %+v; want 3 elements, truncated, of Orders", l)
	}
	if e := l.Elements[2]; e.Bounds != [4]int{20, 100, 60, 30} || e.Parent != 1 || e.Path == "" {
		t.Fatalf("element 2 = %+v; want its bounds as x, y, w, h, its parent and path", e)
	}
	if _, err := List(context.Background(), &fake{}, 3); CodeOf(err) != ops.CodeNoElements {
		t.Fatalf("an empty window: %v; want NO_ELEMENTS", err)
	}
	if _, err := List(context.Background(), &fake{err: errors.New("bus gone")}, 3); CodeOf(err) != ops.CodeInternal {
		t.Fatalf("a failed read: %v; want failed", err)
	}
}

func TestTryListsTheMatchesEitherWay(t *testing.T) {
	src := &fake{tree: orders()}
	for _, c := range []struct {
		sel   selector.Selector
		code  string
		count int
	}{
		{selector.Selector{Role: "button", Name: "Save", In: &selector.Selector{Role: "group", Name: "Shipping"}}, "", 1},
		{selector.Selector{Role: "button", Name: "Save"}, ops.CodeSelectorAmbiguous, 2},
		{selector.Selector{Role: "link", Name: "Save"}, ops.CodeSelectorNotFound, 0},
	} {
		l, err := Try(context.Background(), src, c.sel, 100)
		if CodeOf(err) != c.code && !(c.code == "" && err == nil) {
			t.Errorf("%s: %v; want code %q", c.sel, err, c.code)
		}
		if l.Match == nil || l.Match.Code != c.code || l.Match.Count != c.count || len(l.Elements) != c.count {
			t.Errorf("%s: listing %+v; want %d matches listed", c.sel, l, c.count)
		}
	}
}

func TestAtThePointer(t *testing.T) {
	l, err := At(context.Background(), &fake{tree: orders()}, image.Pt(30, 260), 100)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range l.Elements {
		names = append(names, e.Name)
	}
	if len(names) != 3 || names[0] != "Orders" || names[1] != "Shipping" || names[2] != "Save" || l.Elements[2].Index != 4 {
		t.Fatalf("At = %v; want Orders > Shipping > Save (element 4)", names)
	}
	if _, err := At(context.Background(), &fake{tree: orders()}, image.Pt(900, 900), 100); CodeOf(err) != ops.CodeNoElements {
		t.Fatalf("nothing under the pointer: %v; want NO_ELEMENTS", err)
	}
}

// TestWatchEmitsChangesOnly: a listing is printed when it differs from the
// last one, not on every read.
func TestWatchEmitsChangesOnly(t *testing.T) {
	src := &fake{tree: orders(), change: func(n int, tr selector.Tree) selector.Tree {
		if n == 3 {
			tr = append(selector.Tree(nil), tr...)
			tr[2].Name = "Saved"
		}
		return tr
	}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []Listing
	err := Watch(ctx, src, 100, time.Millisecond, func(l Listing, err error) error {
		if err != nil {
			return err
		}
		got = append(got, l)
		if len(got) == 2 {
			cancel()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Elements[2].Name != "Save" || got[1].Elements[2].Name != "Saved" || src.reads < 3 {
		t.Fatalf("watch emitted %d listings after %d reads; want the first and the changed one", len(got), src.reads)
	}
}
