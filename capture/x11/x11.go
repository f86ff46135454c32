// Package x11 is the Linux desktop floor source (SPEC section 9): it watches
// a person's mouse and keyboard on an X display through the RECORD extension
// and assembles them into intentful steps (capture/desktop/assemble.go), each with the active app and
// window, the cursor, and optionally a pre-action frame and an accessibility
// enrichment from hooks other packages provide.
//
// The assembling is portable and tested everywhere; the X connection is Linux
// only (source_linux.go), and other systems get a source that says it is
// unavailable.
package x11

import (
	"log/slog"
	"os"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/desktop"
)

// Name is the source's name.
const Name = "x11"

// Options configure a Source. The zero value records $DISPLAY with no
// frames and no enrichment.
type Options struct {
	// Display is the X display to record, such as ":0"; empty means
	// $DISPLAY when the source is made.
	Display string
	// desktop.Frames, desktop.Enricher (AT-SPI), the queue's size and the logger.
	desktop.PipelineOptions
}

// Source records an X display. It is safe for concurrent use; it can be
// started again after Stop.
type Source struct {
	*desktop.Shell[desktop.Stats]
	opts Options
}

var _ capture.Source = (*Source)(nil)

// New returns a source for opts; it connects to nothing until Available or
// Start.
func New(opts Options) *Source {
	if opts.Display == "" {
		opts.Display = os.Getenv("DISPLAY")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.Logger = opts.Logger.WithGroup("x11")
	return &Source{Shell: desktop.NewShell[desktop.Stats](Name), opts: opts}
}
