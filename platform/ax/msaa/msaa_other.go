//go:build !(windows && (amd64 || arm64))

package msaa

import (
	"context"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax"
)

// Enricher resolves the element at a screen point through MSAA; it exists
// on windows/amd64 and windows/arm64 only.
type Enricher struct{}

// New reports that MSAA is Windows-only.
func New(Options) (*Enricher, error) { return nil, ErrUnsupported }

// At reports that MSAA is Windows-only.
func (*Enricher) At(context.Context, int, int) (*events.Enrichment, error) {
	return nil, ErrUnsupported
}

// List reports that MSAA is Windows-only.
func (*Enricher) List(context.Context, string, int) ([]ax.Node, error) {
	return nil, ErrUnsupported
}

// Close does nothing here.
func (*Enricher) Close() error { return nil }
