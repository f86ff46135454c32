package ax

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/reprise-dev/reprise/platform/ax/atspi"
)

// Open returns the accessibility tree of display ("" for $DISPLAY):
// AT-SPI.
func Open(display string, log *slog.Logger) (Tree, func() error, error) {
	e, err := atspi.New(atspi.Options{Display: display, Logger: log, Timeout: time.Second})
	if err != nil {
		return nil, nil, err
	}
	return ATSPI{e}, e.Close, nil
}

// ATSPI is a Tree over an atspi.Enricher.
type ATSPI struct{ *atspi.Enricher }

var (
	_ Tree   = ATSPI{}
	_ Lister = ATSPI{}
)

func (a ATSPI) Find(ctx context.Context, window, role, label string) ([]Element, error) {
	els, err := a.Enricher.Find(ctx, window, role, label)
	if errors.Is(err, atspi.ErrNoWindow) {
		return nil, nil
	}
	out := make([]Element, len(els))
	for i, el := range els {
		out[i] = Element{Role: el.Role, Handle: el}
	}
	return out, err
}

func (a ATSPI) Fill(ctx context.Context, el Element, text string) error {
	return a.SetText(ctx, el.Handle.(atspi.Element), text)
}

func (a ATSPI) Text(ctx context.Context, el Element) (string, error) {
	return a.Enricher.Text(ctx, el.Handle.(atspi.Element))
}

// Press runs whichever action the element's toolkit names for a press.
func (a ATSPI) Press(ctx context.Context, el Element) error {
	var err error
	for _, name := range []string{"click", "press", "activate", "toggle"} {
		if err = a.DoAction(ctx, el.Handle.(atspi.Element), name); err == nil {
			return nil
		}
	}
	return err
}

// List reads the window's elements through AT-SPI (atspi.Enricher.List);
// each Handle is an atspi.Element.
func (a ATSPI) List(ctx context.Context, window string, limit int) ([]Node, error) {
	nodes, err := a.Enricher.List(ctx, window, limit)
	if errors.Is(err, atspi.ErrNoWindow) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]Node, len(nodes))
	for i, n := range nodes {
		out[i] = Node{
			Element: Element{Role: n.Role, Handle: n.Element},
			Name:    n.Name, ID: n.ID, Value: n.Value, Label: n.LabelIndex, Parent: n.Parent,
			Bounds: n.Bounds, Window: n.Window, App: n.App, Path: n.AXPath, Password: n.Password,
			Focused: n.Focused,
		}
	}
	return out, nil
}
