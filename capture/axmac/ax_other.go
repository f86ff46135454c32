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
