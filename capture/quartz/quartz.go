// Package quartz is the macOS desktop floor source (SPEC section 9): a
// listen-only Quartz event tap (CGEventTapCreate, through purego, no cgo)
// sees mouse-downs and key-downs in every application; the callback stamps
// each event and queues it without waiting, and one goroutine translates it
// (Translator) and assembles it with capture/x11's portable Assembler, so that a
// step means the same on macOS as on Linux. Steps carry the frontmost
// application (NSWorkspace) and the window under the point or owning the
// keyboard (CGWindowListCopyWindowInfo), and optionally a pre-action frame
// and an accessibility enrichment (platform/ax/axmac) from hooks.
//
// Everything that talks to macOS is in *_darwin.go and only compiles there;
// the key mapping, the translation, the window choice and the assembling are
// portable and tested on every system. Elsewhere the source reports itself
// unavailable.
//
// Permissions: the tap needs Input Monitoring (or Accessibility) for the
// process; window titles need Screen Recording, without which steps carry
// the application but an empty window title; frames need Screen Recording.
package quartz

import (
	"errors"
	"log/slog"
	"runtime"
	"sync/atomic"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/desktop"
)

// Name is the source's name.
const Name = "quartz"

// ErrUnsupported is returned off macOS.
var ErrUnsupported = errors.New("quartz capture is not supported on " + runtime.GOOS)

// Options configure a Source. The zero value records with no frames and no
// enrichment.
type Options = desktop.PipelineOptions

// Stats count one session's input and output: the pipeline's, and the
// times macOS disabled the tap and it was re-enabled.
type Stats struct {
	desktop.Stats
	Reenabled uint64
}

// Source records the macOS desktop. It is safe for concurrent use; it can be
// started again after Stop. Only one Source runs a tap at a time per
// process.
type Source struct {
	*desktop.Shell[Stats]
	opts Options
}

var _ capture.Source = (*Source)(nil)

// New returns a source for opts; it touches nothing until Available or
// Start.
func New(opts Options) *Source {
	return &Source{Shell: desktop.NewShell[Stats](Name), opts: withDefaults(opts)}
}

func withDefaults(opts Options) Options {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.Logger = opts.Logger.WithGroup("quartz")
	return opts
}

// pipeline carries tapped events to the sink through capture/desktop's.
type pipeline struct {
	*desktop.Pipeline[Event]
	reenabled atomic.Uint64 // times macOS disabled the tap and it was re-enabled
	log       *slog.Logger
}

// newPipeline translates each tapped event (the Translator keeps the
// modifier state between events) and names its window with resolve, which
// runs in the assembling goroutine and so may ask the window server.
func newPipeline(sink capture.Sink, opts Options, resolve func(Event, *desktop.Window)) *pipeline {
	var tr Translator
	return &pipeline{log: opts.Logger, Pipeline: desktop.NewPipeline(sink, opts, func(dst []desktop.Raw, e Event) []desktop.Raw {
		var win desktop.Window
		if resolve != nil {
			resolve(e, &win)
		}
		if win.ID == 0 {
			win.ID = e.WindowID
		}
		for _, r := range tr.Translate(e) {
			r.Window = win
			dst = append(dst, r)
		}
		return dst
	})}
}

func (p *pipeline) stats() Stats {
	return Stats{Stats: p.Stats(), Reenabled: p.reenabled.Load()}
}
