// Package atspi enriches desktop steps on Linux from the AT-SPI
// accessibility tree (SPEC section 9): for a point on the screen it names
// the element under it (role, label, path), and for replay it finds
// elements again and acts on them through AT-SPI's own interfaces.
//
// It speaks D-Bus directly (godbus) to the accessibility bus, found as
// libatspi finds it, so it needs no cgo and builds everywhere; off Linux
// New and Available report ErrUnsupported.
//
// Labels: an element's label is its accessible name; else the name of its
// LABELLED_BY target; else, for input fields only, the label-role element
// drawn just left of it on the same row, or failing that just above it
// (zenity's and many dialogs' entries name themselves nowhere else).
//
// Listing: List reads a whole window for the selector model (ax.Lister):
// ARIA roles (a named panel is a group), LABELLED_BY links, ids, fields'
// text and bounds, one batched round trip per tree level.
//
// Paths: AXPath runs from the top-level window down, one segment per
// element: AT-SPI's role name, "[name]" when the element has a name, and
// "#n" when several siblings share role and name (n counts them in tree
// order), as in "dialog[New customer]/filler/panel[Forms dialog]/panel/text#2".
// It is stable between runs of an application that builds the same window.
// The last segment keeps AT-SPI's own role ("password text"), which is how
// IsPassword knows a secret field.
package atspi

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// Log keys.
const (
	logFrom  = "bus_from"
	logError = "error"
)

// Options configure an Enricher.
type Options struct {
	// Display is the X display (":0") whose root window may carry the
	// accessibility bus address; empty skips that source.
	Display string
	// Logger receives start-up and failed-lookup notes, never a field's
	// text; nil discards them.
	Logger *slog.Logger
	// Timeout bounds one lookup (At) or one action on an element; Find gets
	// ten times as long, since it walks a whole window. Default 200 ms.
	Timeout time.Duration
}

func (o *Options) setDefaults() {
	if o.Timeout <= 0 {
		o.Timeout = 200 * time.Millisecond
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// Enricher answers questions about the accessibility tree over one
// connection to the accessibility bus. It is safe for concurrent use; a
// dropped connection is redialled on the next call.
type Enricher struct {
	opts Options
	log  *slog.Logger

	mu     sync.Mutex
	conn   *dbus.Conn
	closed bool
}

// New connects to the accessibility bus. The error wraps ErrNoSessionBus,
// ErrNoA11yBus or ErrUnsupported when enrichment cannot run here at all.
func New(opts Options) (*Enricher, error) {
	opts.setDefaults()
	e := &Enricher{opts: opts, log: opts.Logger.WithGroup("atspi")}
	ctx, cancel := context.WithTimeout(context.Background(), 5*opts.Timeout)
	defer cancel()
	if _, err := e.client(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// Close drops the connection. It is safe to call twice.
func (e *Enricher) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	if e.conn == nil {
		return nil
	}
	err := e.conn.Close()
	e.conn = nil
	return err
}

func (e *Enricher) client(ctx context.Context) (client, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return client{}, fmt.Errorf("atspi: enricher closed")
	}
	if e.conn != nil && e.conn.Connected() {
		return client{e.conn}, nil
	}
	conn, from, err := connectA11y(ctx, e.opts.Display)
	if err != nil {
		return client{}, err
	}
	e.log.Debug("connected to the accessibility bus", logFrom, from)
	e.conn = conn
	return client{conn}, nil
}

// At returns what the accessibility tree knows about the deepest element at
// screen point (x, y): kind "ax", reprise's role, a label (see labelOf) and
// a path from its top-level window (see formatPath); Selectors is empty.
// It returns nil and no error when no application's window covers the point.
// A password field comes back as role "textbox"; IsPassword tells it apart.
// When the label cannot be read within Timeout, the enrichment comes back
// without it. When the path cannot, At fails, except for a password field,
// which comes back with its own segment only, so that it is still known.
func (e *Enricher) At(ctx context.Context, x, y int) (*events.Enrichment, error) {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	c, err := e.client(ctx)
	if err != nil {
		return nil, err
	}
	win, err := c.windowAt(ctx, x, y)
	if err != nil || win.null() {
		return nil, err
	}
	el := win
	for range 64 { // a cycle in a broken tree must not spin forever
		kid, err := c.childAt(ctx, el, x, y)
		if err != nil {
			return nil, fmt.Errorf("element at (%d, %d): %w", x, y, err)
		}
		if kid.null() || kid == el {
			break
		}
		el = kid
	}
	// The role first: should the path run out of time, the step still
	// learns that it touched a password field.
	role, err := c.roleName(ctx, el)
	if err != nil {
		return nil, fmt.Errorf("role of element at (%d, %d): %w", x, y, err)
	}
	nodes, ancestors, err := c.path(ctx, el, win)
	switch {
	case err != nil && role == rolePassword:
		e.log.Debug("path lookup failed", logError, err)
		nodes, ancestors = []axpath.Node{{Role: role}}, nil
	case err != nil:
		// No name to tell it by: under load an OK's dialog closes while its
		// path is read, and a nameless button would stand for it.
		return nil, fmt.Errorf("path of element at (%d, %d): %w", x, y, err)
	}
	last := nodes[len(nodes)-1]
	label, err := c.labelOf(ctx, el, last, ancestors, labelCache{})
	if err != nil {
		// A label that could not be read in time leaves the step's
		// role and path, which still find the element again.
		e.log.Debug("label lookup failed", logError, err)
	}
	return axpath.Enrichment(nodes, Role(last.Role), label, ""), nil
}

// IsPassword reports whether e describes a password field, whose value must
// never leave the capture source (SPEC section 8). The marker is the path's
// last segment, which keeps AT-SPI's own role name ("password text") while
// Role says "textbox"; so the answer survives the step being stored.
func IsPassword(e *events.Enrichment) bool {
	return axpath.IsPassword(e, rolePassword)
}

// candidate is a top-level window covering the point.
type candidate struct {
	win    ref
	active bool
	area   int
}

// windowAt picks the top-level window under (x, y). AT-SPI says nothing of
// stacking order, so the active window wins, then the smallest (a dialog
// over its parent window).
func (c client) windowAt(ctx context.Context, x, y int) (ref, error) {
	apps, err := c.children(ctx, ref{registryBus, rootPath})
	if err != nil {
		return ref{}, fmt.Errorf("list applications: %w", err)
	}
	var best *candidate
	for _, app := range apps {
		wins, err := c.children(ctx, app)
		if err != nil {
			continue // an application that went away or hangs is not ours
		}
		for _, w := range wins {
			box, err := c.extents(ctx, w)
			if err != nil || !box.contains(x, y) {
				continue
			}
			st, err := c.states(ctx, w)
			if err != nil || !has(st, stateShowing) {
				continue
			}
			cand := candidate{w, has(st, stateActive), box.W * box.H}
			if best == nil || cand.better(*best) {
				best = &cand
			}
		}
		if ctx.Err() != nil {
			return ref{}, ctx.Err()
		}
	}
	if best == nil {
		return ref{}, nil
	}
	return best.win, nil
}

func (a candidate) better(b candidate) bool {
	if a.active != b.active {
		return a.active
	}
	return cmp.Less(a.area, b.area)
}
