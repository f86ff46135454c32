package ax

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/platform/ax/axmac"
)

// Open returns the accessibility tree: macOS AX (the process must be
// trusted for Accessibility). display is ignored.
func Open(_ string, log *slog.Logger) (Tree, func() error, error) {
	e, err := axmac.New(axmac.Options{Logger: log, Timeout: time.Second})
	if err != nil {
		return nil, nil, err
	}
	m := &MacAX{Enricher: e}
	return m, m.Close, nil
}

// MacAX is a Tree over an axmac.Enricher. The elements a Find returns hold
// references into the target app: they stay valid until the next Find,
// which releases them, or Close. The executor acts on an element between
// the Find that found it and the next one.
type MacAX struct {
	*axmac.Enricher

	mu   sync.Mutex
	last []axmac.Element // the previous Find's elements
}

var _ Tree = (*MacAX)(nil)

// Find lists the elements with role and label in the window titled window.
func (m *MacAX) Find(ctx context.Context, window, role, label string) ([]Element, error) {
	m.mu.Lock()
	for _, el := range m.last {
		el.Release()
	}
	m.last = nil
	m.mu.Unlock()
	els, err := m.Enricher.Find(ctx, window, role, label)
	if errors.Is(err, axmac.ErrNoWindow) {
		return nil, nil
	}
	m.mu.Lock()
	m.last = els
	m.mu.Unlock()
	out := make([]Element, len(els))
	for i, el := range els {
		out[i] = Element{Role: el.Role, Handle: el}
	}
	return out, err
}

// Fill sets a text field's value (AXValue); a secure field is refused.
func (m *MacAX) Fill(ctx context.Context, el Element, text string) error {
	return m.SetValue(ctx, el.Handle.(axmac.Element), text)
}

// Text reads a text field's value back; a secure field is refused.
func (m *MacAX) Text(ctx context.Context, el Element) (string, error) {
	return m.Value(ctx, el.Handle.(axmac.Element))
}

// Press performs the element's AXPress action.
func (m *MacAX) Press(ctx context.Context, el Element) error {
	return m.Enricher.Press(ctx, el.Handle.(axmac.Element))
}

// Close releases every element and the enricher. Safe to call twice.
func (m *MacAX) Close() error {
	m.mu.Lock()
	m.last = nil
	m.mu.Unlock()
	return m.Enricher.Close()
}
