//go:build !linux

package x11

import (
	"context"
	"runtime"
	"testing"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/capturetest"
)

// TestConformance off Linux: the static checks pass, and the suite skips the
// rest loudly, saying X11 capture needs Linux.
func TestConformance(t *testing.T) {
	t.Logf("x11 capture runs on Linux only; on %s only its static checks run", runtime.GOOS)
	capturetest.Run(t, func(t *testing.T) capture.Source { return New(Options{}) }, nil, 1)
}

func TestStartUnsupported(t *testing.T) {
	if err := New(Options{}).Start(context.Background(), capture.Session{}, capture.NewQueue(1)); err == nil {
		t.Errorf("Start() = nil on %s; want an error", runtime.GOOS)
	}
}
