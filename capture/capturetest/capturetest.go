// Package capturetest is the conformance suite every capture.Source runs:
// the contract of the Source and Sink doc comments, checked against the
// real source (under Xvfb, in Chromium, from a file).
//
//	func TestConformance(t *testing.T) {
//		capturetest.Run(t, func(t *testing.T) capture.Source { return x11.New(...) },
//			func(t *testing.T, s capture.Source) { xdotool(t, "click", "1") }, 1)
//	}
package capturetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
)

// Bounds the suite holds a source to. They are generous, for a loaded CI
// machine under the race detector; a source that misses one is broken, not
// slow.
const (
	// StartBound is how long Start may take to return.
	StartBound = 10 * time.Second
	// StopBound is how long Stop may take to return, and how long emission
	// may go on after ctx is cancelled.
	StopBound = 2 * time.Second
	// Quiet is how long the suite watches for a stray Emit after Stop or a
	// cancel.
	Quiet = 300 * time.Millisecond
	// tsSlack is how far before Start a step's TS may lie: an OS clock and
	// the event's own timestamp may disagree a little.
	tsSlack = 5 * time.Second
)

// StepTimeout is how long the suite waits for minSteps steps. A test may
// change it before Run (not during) for a source known to be slower or
// faster to start.
var StepTimeout = 30 * time.Second

// Run runs the conformance suite against sources made by newSource. drive,
// if not nil, makes the source produce at least minSteps steps (a person's
// actions under Xvfb, a page under Chromium...); for self-driven sources like
// scripted it is nil. drive performs the actions and returns; it does not
// wait for the steps, and it is also called after Stop and after a cancel to
// check that nothing more is emitted. minSteps < 1 counts as 1.
//
// Every call of newSource must return a fresh source. If the source is not
// available here, the static checks run and the rest is skipped, loudly.
func Run(t *testing.T, newSource func(t *testing.T) capture.Source, drive func(t *testing.T, s capture.Source), minSteps int) {
	t.Helper()
	if minSteps < 1 {
		minSteps = 1
	}
	s := &suite{newSource: newSource, drive: drive, minSteps: minSteps}
	t.Run("Name", s.name)
	t.Run("Channels", s.channels)
	t.Run("Available", s.available)

	probe := newSource(t)
	if ok, reason := probe.Available(); !ok {
		t.Skipf("capturetest: SKIPPING every capture check of source %s: it is not available here: %s",
			probe.Name(), reason)
	}
	t.Run("StepsArrive", s.stepsArrive)
	t.Run("NoEmitAfterStop", s.noEmitAfterStop)
	t.Run("StopTwice", s.stopTwice)
	t.Run("StopWithoutStart", s.stopWithoutStart)
	t.Run("CancelStopsEmission", s.cancelStopsEmission)
	t.Run("FullSinkNeverBlocks", s.fullSinkNeverBlocks)
	t.Run("SecondSession", s.secondSession)
}

type suite struct {
	newSource func(t *testing.T) capture.Source
	drive     func(t *testing.T, s capture.Source)
	minSteps  int
}

func (s *suite) name(t *testing.T) {
	src := s.newSource(t)
	name := src.Name()
	if name == "" {
		t.Fatal(`Name() = ""; want a non-empty name`)
	}
	src.Available()
	src.Channels()
	if again := src.Name(); again != name {
		t.Errorf("Name() = %q, then %q; want the same name every time", name, again)
	}
}

func (s *suite) channels(t *testing.T) {
	src := s.newSource(t)
	chans := src.Channels()
	if len(chans) == 0 {
		t.Fatalf("Channels() = %v; want at least one of %v", chans, capture.KnownChannels())
	}
	seen := map[string]bool{}
	for _, c := range chans {
		if !capture.KnownChannel(c) {
			t.Errorf("Channels() holds %q; want only %v", c, capture.KnownChannels())
		}
		if seen[c] {
			t.Errorf("Channels() = %v lists %q twice; want each once", chans, c)
		}
		seen[c] = true
	}
	if again := src.Channels(); !slices.Equal(again, chans) {
		t.Errorf("Channels() = %v, then %v; want the same every time", chans, again)
	}
}

func (s *suite) available(t *testing.T) {
	src := s.newSource(t)
	ok, reason := src.Available()
	if !ok && reason == "" {
		t.Errorf(`Available() = false, ""; want a reason that says why and what to do`)
	}
	if !ok {
		t.Logf("source %s is unavailable here: %s", src.Name(), reason)
	}
}

// session returns the session the suite starts src with; n tells sessions
// apart.
func session(src capture.Source, n int) capture.Session {
	return capture.Session{
		RecordingID: fmt.Sprintf("rec_capturetest_%d", n),
		Mode:        capture.ModeDemonstration,
		Channels:    src.Channels(),
	}
}
