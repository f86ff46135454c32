package elements

import (
	"context"

	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/selector"
)

// Page reads a browser's page.
type Page struct{ Executor *browser.Executor }

func (Page) Name() string { return "browser" }

func (p Page) Read(ctx context.Context, limit int) (string, selector.Tree, bool, error) {
	pg, err := p.Executor.Elements(ctx, limit)
	return pg.Title, pg.Tree, pg.More, err
}

// Window reads a window through the accessibility tree: the one whose title
// contains Title, or the active one.
type Window struct {
	Tree  ax.Tree
	Title string
}

func (Window) Name() string { return "desktop" }

func (w Window) Read(ctx context.Context, limit int) (string, selector.Tree, bool, error) {
	l, ok := w.Tree.(ax.Lister)
	if !ok {
		return "", nil, false, Fail(ops.CodeUnsupported, "this OS's accessibility tree cannot be listed yet")
	}
	// One more than asked says whether the window has more.
	nodes, err := l.List(ctx, w.Title, limit+1)
	if err != nil {
		return "", nil, false, err
	}
	more := len(nodes) > limit
	if more {
		nodes = nodes[:limit]
	}
	t := desktop.TreeOf(nodes)
	title := w.Title
	if len(nodes) > 0 {
		title = nodes[0].Window
	}
	return title, t, more, nil
}
