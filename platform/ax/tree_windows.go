package ax

import (
	"context"
	"errors"
	"log/slog"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/uia"
)

// Open returns the accessibility tree: UI Automation. display is ignored.
func Open(_ string, log *slog.Logger) (Tree, func() error, error) {
	c, err := uia.New(uia.Options{Logger: log})
	if err != nil {
		return nil, nil, err
	}
	return UIA{c}, c.Close, nil
}

// UIA is a Tree over a uia.Client: patterns act on an element found once.
type UIA struct{ *uia.Client }

var _ Lister = UIA{}

// List reads the window's control view (uia.Client.List); each node's
// handle is the uia.Element Fill, Text and Press act on, valid until the
// next List.
func (u UIA) List(ctx context.Context, window string, limit int) ([]Node, error) {
	ns, err := u.Client.List(ctx, window, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Node, len(ns))
	for i, n := range ns {
		out[i] = Node{
			Element: Element{Role: n.Role, Handle: n.Element}, Name: n.Label, ID: n.ID, Value: n.Value,
			Label: n.LabeledBy, Parent: n.Parent, Bounds: n.Bounds, Window: n.Window, App: n.App,
			Path: n.AXPath, Password: n.Password,
		}
	}
	return out, nil
}

func (u UIA) Find(ctx context.Context, window, role, label string) ([]Element, error) {
	els, err := u.Client.Find(ctx, window, role, label)
	if errors.Is(err, uia.ErrNoWindow) {
		return nil, nil
	}
	out := make([]Element, len(els))
	for i, el := range els {
		out[i] = Element{Role: el.Role, Handle: el}
	}
	return out, err
}

func (u UIA) Fill(ctx context.Context, el Element, text string) error {
	return u.Act(ctx, el.Handle.(uia.Element), events.ActionFill, text)
}

func (u UIA) Text(ctx context.Context, el Element) (string, error) {
	return u.Value(ctx, el.Handle.(uia.Element))
}

func (u UIA) Press(ctx context.Context, el Element) error {
	return u.Act(ctx, el.Handle.(uia.Element), events.ActionClick, "")
}
