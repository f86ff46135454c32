// Package winhook is the Windows desktop floor source (SPEC section 9): it
// watches a person's mouse and keyboard through the low-level hooks
// WH_MOUSE_LL and WH_KEYBOARD_LL and assembles them into intentful steps with
// capture/desktop's portable Assembler (virtual keys become X keysyms in vk.go),
// each with the window under the press (its root owner's title, and its
// process's image name as the app).
//
// The hook callback stamps each event and hands it to a bounded channel
// without ever waiting; one goroutine resolves the window, assembles and emits.
// Input another program injected (SendInput, LLMHF_INJECTED) is ignored
// unless Options.IncludeInjected is set: that is replay, not the person.
//
// The translation is portable and tested everywhere; the pipeline and the
// hooks run on Windows only (source_windows.go), and other systems get a source
// that says it is unavailable.
package winhook

//lint:file-ignore U1000 the pipeline runs on Windows only; elsewhere its parts are unused

import (
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/desktop"
)

// Name is the source's name.
const Name = "winhook"

// logKeyErr is the log key of an error.
const logKeyErr = "err"

// Options configure a Source. The zero value records the person's input on
// the interactive desktop, ignoring injected input.
type Options struct {
	// Frames, Enricher (UI Automation, else MSAA), the queue's size and
	// the logger, as for every desktop source.
	desktop.PipelineOptions
	// IncludeInjected records input flagged injected (SendInput, including
	// reprise's own replay) as if the person made it. Tests that drive the
	// desktop synthetically set it; a recording never should.
	IncludeInjected bool
}

// Stats count one session's input and output: the pipeline's, and the
// events ignored because they were injected (not in Events).
type Stats struct {
	desktop.Stats
	Injected uint64
}

// Source records the Windows desktop. It is safe for concurrent use; it can
// be started again after Stop. Only one Source records at a time in a
// process: the hooks are process-wide.
type Source struct {
	*desktop.Shell[Stats]
	opts Options
}

var _ capture.Source = (*Source)(nil)

// ErrBusy is Start's error while another Source of this process records.
var ErrBusy = errors.New("winhook: another recording holds the input hooks of this process")

// New returns a source for opts; it installs nothing until Start.
func New(opts Options) *Source {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.Logger = opts.Logger.WithGroup(Name)
	return &Source{Shell: desktop.NewShell[Stats](Name), opts: opts}
}

// keyRaw is a key event as the assembler wants it: the virtual key in Keycode
// and its keysyms resolved (a table lookup, cheap enough for the callback).
func keyRaw(kind desktop.Kind, vk uint16, extended bool, at time.Time) desktop.Raw {
	r := desktop.Raw{Kind: kind, Keycode: byte(vk), Time: at}
	r.Sym, r.Shifted = keysymsOf(vk, extended)
	return r
}

// pipeline carries input from the hook callback to the sink through
// capture/desktop's, counting what the callback ignored as injected.
type pipeline struct {
	*desktop.Pipeline[desktop.Raw]
	injected atomic.Uint64
}

// newPipeline names each event's window with resolve, which runs in the
// assembling goroutine, never the callback.
func newPipeline(sink capture.Sink, opts Options, resolve func(*desktop.Raw)) *pipeline {
	return &pipeline{Pipeline: desktop.NewPipeline(sink, opts.PipelineOptions, func(dst []desktop.Raw, r desktop.Raw) []desktop.Raw {
		if resolve != nil {
			resolve(&r)
		}
		return append(dst, r)
	})}
}

func (p *pipeline) stats() Stats {
	return Stats{Stats: p.Stats(), Injected: p.injected.Load()}
}

// session is one running recording: the hook thread and the assembling
// goroutine, stopped by stop and waited for on done.
type session struct {
	pipe *pipeline
	stop func()        // asks the hook thread to quit; safe to call twice
	done chan struct{} // closed when the pipeline has flushed
}

// Stats counts the session's input and output so far.
func (sess *session) Stats() Stats { return sess.pipe.stats() }

// Shutdown removes the hooks and returns once every step is emitted.
func (sess *session) Shutdown() {
	sess.stop()
	<-sess.done
}
