//go:build !darwin

package axmac

import (
	"context"
	"log/slog"
	"time"

	"github.com/reprise-dev/reprise/events"
)

// Options configure an Enricher.
type Options struct {
	Timeout time.Duration
	Logger  *slog.Logger
}

// Enricher is macOS only.
type Enricher struct{}

// New fails off macOS.
func New(Options) (*Enricher, error) { return nil, ErrUnsupported }

// At fails off macOS.
func (*Enricher) At(context.Context, int, int) (*events.Enrichment, error) {
	return nil, ErrUnsupported
}

// Close does nothing.
func (*Enricher) Close() error { return nil }

// IsTrusted is false off macOS.
func IsTrusted() bool { return false }

// RequestTrust is false off macOS.
func RequestTrust() bool { return false }

// EnableTree fails off macOS.
func EnableTree(int) error { return ErrUnsupported }

// RaiseWindow fails off macOS.
func RaiseWindow(int, string) error { return ErrUnsupported }

// handle is empty off macOS: Find returns no elements there.
type handle struct{}

// Find fails off macOS.
func (*Enricher) Find(context.Context, string, string, string) ([]Element, error) {
	return nil, ErrUnsupported
}

// Press fails off macOS.
func (*Enricher) Press(context.Context, Element) error { return ErrUnsupported }

// SetValue fails off macOS.
func (*Enricher) SetValue(context.Context, Element, string) error { return ErrUnsupported }

// Value fails off macOS.
func (*Enricher) Value(context.Context, Element) (string, error) { return "", ErrUnsupported }

// Release does nothing off macOS.
func (Element) Release() {}
