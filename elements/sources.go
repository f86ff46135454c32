package elements

import (
	"context"
	"log/slog"
	"time"

	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/selector"
)

// Page reads a browser's page.
type Page struct{ Executor *browser.Executor }

// attachWait bounds attaching to a running browser.
const attachWait = 20 * time.Second

// OpenPage attaches to the browser whose DevTools endpoint is url, to read
// the page it shows. Close lets it go; the browser runs on.
func OpenPage(ctx context.Context, url string) (Page, error) {
	ctx, cancel := context.WithTimeout(ctx, attachWait)
	defer cancel()
	ex, err := browser.New(ctx, browser.Options{BrowserURL: url, Attach: true})
	if err != nil {
		return Page{}, Fail(ops.CodeInternal, "%v", err)
	}
	return Page{Executor: ex}, nil
}

// RunningIn is the DevTools endpoint of the browser a replay runs on the
// profile folder dir.
func RunningIn(dir string) (string, error) {
	url, err := browser.RunningIn(dir)
	if err != nil {
		return "", Fail(ops.CodeInternal, "%v", err)
	}
	return url, nil
}

// Close lets the browser go.
func (p Page) Close() error { return p.Executor.Close() }

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

// OpenWindow reads the window on display (the default one when empty) whose
// title contains title, or the active one; closeTree lets the
// accessibility tree go.
func OpenWindow(display, title string, log *slog.Logger) (w Window, closeTree func() error, err error) {
	tree, closeTree, err := ax.Open(display, log)
	if err != nil {
		return Window{}, nil, Fail(ops.CodeUnsupported, "the accessibility tree cannot be read here: %v", err)
	}
	return Window{Tree: tree, Title: title}, closeTree, nil
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
