// Package desktop is what every OS's desktop floor source shares (SPEC
// section 9): the pipeline from an input callback to the sink, the assembling
// of raw input into intentful steps, and the Source shell (name, channel,
// one session at a time, its counts). capture/x11, capture/quartz and
// capture/winhook add only their hooks and their own events.
package desktop

import (
	"context"
	"time"

	"github.com/reprise-dev/reprise/events"
)

// Defaults for PipelineOptions. An accessibility lookup takes tens of
// milliseconds on an idle machine but several hundred on a busy one, on a
// window just opened; a lookup cut short loses the element's label, and a
// step without it no longer joins the same step of another demonstration.
const (
	DefaultQueueSize     = 1024
	DefaultEnrichTimeout = time.Second
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

// Stats count one session's input and output.
type Stats struct {
	Events        uint64 // raw input events the callback saw
	DroppedEvents uint64 // of those, dropped because assembling fell behind
	Steps         uint64 // steps handed to the sink
	DroppedSteps  uint64 // of those, refused by a full sink
}
