package elements

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/selector"
)

// Query is what one read lists: every element, at most Limit (the
// default); the matches of Match; or the element under the pointer and
// its ancestors (AtPointer, on the X display Display).
type Query struct {
	Match     *selector.Selector
	AtPointer bool
	Display   string
	Limit     int
}

// Run reads src for q. A selector that does not match exactly one element
// gives its listing (the matches, if any) with the error.
func Run(ctx context.Context, src Source, q Query) (Listing, error) {
	switch {
	case q.Match != nil:
		return Try(ctx, src, *q.Match, max(q.Limit, browser.MaxElements))
	case q.AtPointer:
		p, err := input.Pointer(q.Display)
		if err != nil {
			return Listing{}, Fail(ops.CodeUnsupported, "read the pointer: %v", err)
		}
		return At(ctx, src, p, browser.MaxElements)
	}
	return List(ctx, src, q.Limit)
}

// WatchJSON watches src (Watch) and writes each change to w as one line
// of JSON: the listing, or {"error": {"code", "message"}} for a read that
// failed.
func WatchJSON(ctx context.Context, src Source, limit int, interval time.Duration, w io.Writer) error {
	lines := json.NewEncoder(w)
	return Watch(ctx, src, limit, interval, func(l Listing, err error) error {
		if err != nil {
			return lines.Encode(map[string]any{"error": &ops.Error{Code: CodeOf(err), Message: err.Error()}})
		}
		return lines.Encode(l)
	})
}
