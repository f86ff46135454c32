package elements

import (
	"context"
	"encoding/json"
	"errors"
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

// Print runs q on src and writes the listing: as indented JSON with
// asJSON, a failure in its "error", else as text (WriteText; limit names
// what raises the limit). A failure the JSON holds comes back Printed.
func Print(ctx context.Context, src Source, q Query, asJSON bool, limit string, w io.Writer) error {
	l, err := Run(ctx, src, q)
	switch {
	case err != nil && l.Match == nil:
		return err
	case !asJSON:
		if werr := WriteText(w, l, limit); werr != nil {
			return werr
		}
		return err
	}
	if err != nil {
		l.Error = &ops.Error{Code: CodeOf(err), Message: err.Error()}
	}
	if werr := writeIndented(w, l); werr != nil {
		return werr
	}
	if err != nil {
		return Printed{err}
	}
	return nil
}

// Printed is a failure Print already wrote beside its listing.
type Printed struct{ error }

func (p Printed) Unwrap() error { return p.error }

// WriteError writes err as {"error": {"code", "message"}}, the JSON of a
// failure before any listing; a Printed one is not written twice.
func WriteError(w io.Writer, err error) error {
	if errors.As(err, new(Printed)) {
		return nil
	}
	return writeIndented(w, map[string]any{"error": &ops.Error{Code: CodeOf(err), Message: err.Error()}})
}

func writeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
