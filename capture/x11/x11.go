// Package x11 is the Linux desktop floor source (SPEC section 9): it watches
// a person's mouse and keyboard on an X display through the RECORD extension
// and folds them into intentful steps (fold.go), each with the active app and
// window, the cursor, and optionally a pre-action frame and an accessibility
// enrichment from hooks other packages provide.
//
// The folding is portable and tested everywhere; the X connection is Linux
// only (source_linux.go), and other systems get a source that says it is
// unavailable.
package x11

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// Name is the source's name.
const Name = "x11"

// Defaults for Options.
const (
	DefaultQueueSize     = 1024
	DefaultEnrichTimeout = 200 * time.Millisecond
)

// Frames gives the newest frame grabbed at or before t, already PNG-encoded.
// It is called from the source's emitting goroutine, never the input
// callback, and must be safe for use while frames are being grabbed.
type Frames interface {
	Before(t time.Time) (png []byte, ok bool)
}

// Enricher resolves the element at a screen point (AT-SPI). It is called
// from the emitting goroutine with a short deadline in ctx; a nil result or
// an error leaves the step without enrichment.
type Enricher interface {
	At(ctx context.Context, x, y int) (*events.Enrichment, error)
}

// Options configure a Source. The zero value records $DISPLAY with no
// frames and no enrichment.
type Options struct {
	// Display is the X display to record, such as ":0"; empty means
	// $DISPLAY when the source is made.
	Display string
	// Frames, Enricher (AT-SPI), the queue's size and the logger.
	PipelineOptions
}

// Stats count one session's input and output.
type Stats struct {
	Events        uint64 // raw input events the callback saw
	DroppedEvents uint64 // of those, dropped because folding fell behind
	Steps         uint64 // steps handed to the sink
	DroppedSteps  uint64 // of those, refused by a full sink
}

// Source records an X display. It is safe for concurrent use; it can be
// started again after Stop.
type Source struct {
	opts Options

	// mu serializes Start and Stop.
	mu   sync.Mutex
	sess *session // nil when not started
	last Stats
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
	return &Source{opts: opts}
}

// Name returns "x11".
func (s *Source) Name() string { return Name }

// Channels returns the floor channel.
func (s *Source) Channels() []string { return []string{capture.ChannelFloor} }

// Stats returns the counts of the running session, or of the last one.
func (s *Source) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != nil {
		return s.sess.pipe.Stats()
	}
	return s.last
}
