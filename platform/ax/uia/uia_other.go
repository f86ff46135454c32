//go:build !windows

package uia

import (
	"context"
	"fmt"
	"runtime"

	"github.com/reprise-dev/reprise/events"
)

// errWindowsOnly is what every call returns off Windows.
var errWindowsOnly = fmt.Errorf("%w: UI Automation is Windows-only, not supported on %s", ErrUnavailable, runtime.GOOS)

// handle is empty off Windows, where no Element is ever made.
//
//lint:ignore U1000 Element's field has this type everywhere
type handle struct{}

// Client is Windows only.
type Client struct{}

// New fails off Windows with an error wrapping ErrUnavailable.
func New(Options) (*Client, error) { return nil, errWindowsOnly }

// At fails off Windows.
func (*Client) At(context.Context, int, int) (*events.Enrichment, error) { return nil, errWindowsOnly }

// Find fails off Windows.
func (*Client) Find(context.Context, string, string, string) ([]Element, error) {
	return nil, errWindowsOnly
}

// List fails off Windows.
func (*Client) List(context.Context, string, int) ([]Node, error) { return nil, errWindowsOnly }

// Act fails off Windows.
func (*Client) Act(context.Context, Element, string, string) error { return errWindowsOnly }

// Value fails off Windows.
func (*Client) Value(context.Context, Element) (string, error) { return "", errWindowsOnly }

// Release does nothing off Windows.
func (*Client) Release(...Element) {}

// Close does nothing off Windows.
func (*Client) Close() error { return nil }
