// Package scripted is a capture source that plays a trajectory file as if a
// person were doing it: for tests, and for the demo on a machine with no
// desktop to record. It needs no OS hooks and runs everywhere.
package scripted

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// DefaultMaxGap caps one wait between two steps when Options.MaxGap is zero,
// so a recording with a coffee break in it still plays in a test.
const DefaultMaxGap = 5 * time.Second

// loopPause is the wait, before Speed, between the last step of one play and
// the first of the next when Options.Loop is set.
const loopPause = time.Second

// Options say how a file is played.
type Options struct {
	// Speed divides the gaps between consecutive steps' ts: 1 is real time,
	// 10 ten times faster; 0 plays as fast as possible. Negative is invalid.
	Speed float64
	// Loop plays the file again after its last step, until Stop; false plays
	// it once and then stays idle.
	Loop bool
	// MaxGap caps each wait between two steps, after Speed; 0 means
	// DefaultMaxGap.
	MaxGap time.Duration
	// Patient waits out a full sink that can take a step later (one with
	// Offer, as capture.Queue) instead of dropping the step, as a file
	// can (it has no person who goes on regardless): a long file played at
	// Speed 0 is then stored whole.
	Patient bool
	// Frames is a directory of pre-action frames named <screenshot_ref>.png;
	// a played step whose frame is there has it kept through the sink's
	// capture.FrameSink before the step is emitted. Empty plays no frames.
	Frames string
}

// maxFrame bounds one frame read from Options.Frames.
const maxFrame = 16 << 20

// fullWait is how long a patient player waits before offering a step to a
// full sink again.
const fullWait = time.Millisecond

// Source plays one trajectory file. It is safe for concurrent use.
type Source struct {
	name     string
	file     string
	channels []string
	opts     Options
	played   atomic.Int64

	// mu serializes Start and Stop; Stop holds it until the player has
	// exited, so no Stop returns while a step may still be emitted.
	mu   sync.Mutex
	stop chan struct{} // closed by Stop; nil when not started
	done chan struct{} // closed when the player exits
}

var _ capture.Source = (*Source)(nil)

// New returns a source named name that plays the recording in file (a JSON
// recording in the SPEC section 4 shape, read with
// events.DecodeRecordingJSON; a file of one JSON step per line is also
// accepted), providing channels. The file is read at Available and at Start,
// not here.
func New(name, file string, channels []string, opts Options) *Source {
	if opts.MaxGap <= 0 {
		opts.MaxGap = DefaultMaxGap
	}
	return &Source{name: name, file: file, channels: slices.Clone(channels), opts: opts}
}

// Name returns the name given to New.
func (s *Source) Name() string { return s.name }

// Channels returns the channels given to New.
func (s *Source) Channels() []string { return slices.Clone(s.channels) }

// Available reports whether the file can be played: it exists, parses,
// validates and holds at least one step, and the options make sense. The
// reason names the file and the problem, never a value from it.
func (s *Source) Available() (bool, string) {
	if err := s.checkOptions(); err != nil {
		return false, err.Error()
	}
	if _, err := load(s.file); err != nil {
		return false, err.Error()
	}
	return true, ""
}

func (s *Source) checkOptions() error {
	if math.IsNaN(s.opts.Speed) || s.opts.Speed < 0 {
		return errors.New("scripted source options: Speed must be 0 (as fast as possible) or positive")
	}
	return nil
}

// Played returns how many steps the current or last session has handed to
// the sink, whether the sink accepted them or not.
func (s *Source) Played() int { return int(s.played.Load()) }

// Start reads the file and begins playing it to sink; it returns once the
// player runs. Each played step is a copy with Seq 0, TS now and Actor
// human; the rest is as in the file. A source may be started again after
// Stop.
func (s *Source) Start(ctx context.Context, sess capture.Session, sink capture.Sink) error {
	if sink == nil {
		return fmt.Errorf("start scripted source %s: nil sink", s.name)
	}
	if err := s.checkOptions(); err != nil {
		return fmt.Errorf("start scripted source %s: %w", s.name, err)
	}
	steps, err := load(s.file)
	if err != nil {
		return fmt.Errorf("start scripted source %s: %w", s.name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		return fmt.Errorf("start scripted source %s: already started; Stop it first", s.name)
	}
	s.played.Store(0)
	s.stop = make(chan struct{})
	s.done = make(chan struct{})
	go s.play(ctx, steps, sink, s.stop, s.done)
	return nil
}

// Stop ends playing, interrupting a wait between steps at once, and returns
// after the player has exited. It is safe to call twice, and without Start.
func (s *Source) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop == nil {
		return nil
	}
	close(s.stop)
	<-s.done
	s.stop, s.done = nil, nil
	return nil
}

// play emits steps with the file's gaps, scaled and capped, until the file
// ends (or, with Loop, forever), Stop, ctx ending, or a closed sink.
func (s *Source) play(ctx context.Context, steps []events.Step, sink capture.Sink, stop, done chan struct{}) {
	defer close(done)
	for round := 0; round == 0 || s.opts.Loop; round++ {
		for i := range steps {
			var d time.Duration
			switch {
			case i > 0:
				d = gap(steps[i-1].TS, steps[i].TS, s.opts.Speed, s.opts.MaxGap)
			case round > 0:
				d = gap(0, loopPause.Seconds(), s.opts.Speed, s.opts.MaxGap)
			}
			if !sleep(ctx, stop, d) {
				return
			}
			step := clone(steps[i])
			step.Seq = 0
			step.TS = events.Stamp(time.Now())
			step.Actor = events.ActorHuman
			s.putFrame(ctx, sink, step.ScreenshotRef)
			s.played.Add(1)
			// A full sink has dropped and counted the step; the person
			// goes on anyway, and so does the play, unless it is patient.
			// A closed one is the recording ending.
			err := s.emit(ctx, stop, sink, step)
			if errors.Is(err, capture.ErrSinkClosed) {
				return
			}
		}
	}
}

// offerer is a sink that can refuse a step for now without counting it lost
// (capture.Queue).
type offerer interface {
	Offer(events.Step) error
}

// emit hands step to sink; a patient player offers it until there is room.
func (s *Source) emit(ctx context.Context, stop <-chan struct{}, sink capture.Sink, step events.Step) error {
	o, ok := sink.(offerer)
	if !s.opts.Patient || !ok {
		return sink.Emit(step)
	}
	err := o.Offer(step)
	for errors.Is(err, capture.ErrSinkFull) && sleep(ctx, stop, fullWait) {
		err = o.Offer(step)
	}
	return err
}

// putFrame keeps the frame of ref from Options.Frames, when there is one
// and the sink keeps frames. A frame that cannot be kept leaves the step
// without one, as a failed screenshot does.
func (s *Source) putFrame(ctx context.Context, sink capture.Sink, ref string) {
	fs, ok := sink.(capture.FrameSink)
	if s.opts.Frames == "" || !ok || !events.ValidToken(ref) || strings.ContainsAny(ref, `/\\`) {
		return
	}
	path := filepath.Join(s.opts.Frames, ref+".png")
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() || info.Size() > maxFrame {
		return
	}
	img, err := os.ReadFile(path)
	if err != nil {
		return
	}
	_ = fs.PutFrame(ctx, ref, img)
}

// gap is how long to wait between steps stamped prev and next, played at
// speed: the difference divided by speed, capped at max. Speed 0, and a next
// step no later than prev, wait nothing.
func gap(prev, next, speed float64, max time.Duration) time.Duration {
	if speed <= 0 || !(next > prev) {
		return 0
	}
	secs := (next - prev) / speed
	if secs >= max.Seconds() {
		return max
	}
	return time.Duration(secs * float64(time.Second))
}

// sleep waits d, or less if stop is closed or ctx ends first; it reports
// whether to carry on. A zero d still notices a stop, so a Speed 0 loop can
// be stopped.
func sleep(ctx context.Context, stop <-chan struct{}, d time.Duration) bool {
	if d <= 0 {
		select {
		case <-stop:
			return false
		case <-ctx.Done():
			return false
		default:
			return true
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-stop:
		return false
	case <-ctx.Done():
		return false
	}
}

// clone copies a step deeply, so whatever the sink's consumer does to it
// (redaction blanks values in place) never reaches the next loop.
func clone(s events.Step) events.Step {
	s.Cursor = slices.Clone(s.Cursor)
	if s.Enrichment != nil {
		e := *s.Enrichment
		e.Selectors = slices.Clone(e.Selectors)
		e.AXPath = clonePtr(e.AXPath)
		s.Enrichment = &e
	}
	if s.Value != nil {
		v := *s.Value
		v.IsParameter = clonePtr(v.IsParameter)
		s.Value = &v
	}
	s.Narration = clonePtr(s.Narration)
	return s
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
