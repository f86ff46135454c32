// Package recorder runs the lifecycle of a recording (SPEC sections 3 and 5):
// START_RECORDING checks consent and channels, writes rec.<id>.started and
// starts the sources; their steps go through CAPTURE and the redact stage to
// RECORDINGS; STOP_RECORDING stops the sources, waits for every captured step
// to land, writes rec.<id>.stopped and folds the log into a summary.
// Everything it reports is folded from the log, never kept only in memory.
package recorder

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/recordings"
	"github.com/reprise-dev/reprise/redact"
	"github.com/reprise-dev/reprise/store"
)

// ConsentChecker consumes a consent token for exactly this mode, route and
// channel set, or says why it cannot (the error becomes CONSENT_REQUIRED).
type ConsentChecker func(ctx context.Context, token, mode, route string, channels []string) error

// Router picks the route a recording is interpreted through, given what the
// machine can do and the route the person consented to (interpret.Prober).
type Router interface {
	Route(ctx context.Context, requested string, channels []string) (events.RouteProbe, error)
}

// Auditor records content-free audit entries (SPEC section 7): that
// something happened, never what was recorded.
type Auditor interface {
	Append(ctx context.Context, kind string, fields map[string]string) error
}

// Config is what a Recorder needs.
type Config struct {
	JS        jetstream.JetStream
	NC        *nats.Conn // for the co-pilot's live subject
	MachineID string
	Registry  *capture.Registry
	Consent   ConsentChecker
	// Keys holds one data key per recording; steps are sealed under it.
	Keys   store.KeyStore
	Logger *slog.Logger
	// QueueSize bounds the steps waiting between sources and the log.
	QueueSize int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Keep is how many recordings to keep; past it the oldest stopped one
	// is crypto-erased. 0 means DefaultKeep.
	Keep int
	// Audit, if set, gets an entry for each lifecycle event.
	Audit Auditor
	// Router, if set, probes the machine at each start; without one a
	// recording gets the route it asked for, unprobed.
	Router Router
	// FreeSpace, if set, says how many bytes the store's disk has free; a
	// recording does not start below MinFree (default store.MinFreeBytes).
	FreeSpace func() (uint64, error)
	MinFree   uint64
	// Recordings reads recordings back, and its sealers seal what the
	// recorder writes; nil makes one over JS and Keys.
	Recordings *recordings.Reader
}

// Recorder serves the recording ops. At most one recording is active.
type Recorder struct {
	cfg       Config
	log       *slog.Logger
	pub       *events.Publisher
	fwd       jetstream.ConsumeContext
	forwarder *events.Forwarder

	recs *recordings.Reader
	seal *recordings.Sealers

	mu     sync.Mutex
	active *session
	live   sync.Map // recording id -> struct{}, for co-pilot recordings not yet stopped

}

// Recordings is the read model the recorder folds recordings with.
func (r *Recorder) Recordings() *recordings.Reader { return r.recs }

// Active returns the id of the recording now running, if one is.
func (r *Recorder) Active() (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active == nil {
		return "", false
	}
	return r.active.started.RecordingID, true
}

// Progress is the running recording's count so far: steps written, and
// steps lost (dropped at a full queue or not written). ok is false when no
// recording runs.
func (r *Recorder) Progress() (id string, written, lost uint64, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active == nil {
		return "", 0, 0, false
	}
	s := r.active
	return s.started.RecordingID, s.written.Load(), s.queue.Dropped() + s.lost.Load(), true
}

// tellStore tells the sources that watch the store whether it fails.
func tellStore(sources []capture.Source, failing bool) {
	for _, src := range sources {
		if w, ok := src.(capture.StoreWatcher); ok {
			w.StoreFailing(failing)
		}
	}
}

// session is the active recording's running parts.
type session struct {
	started events.RecordingStarted
	sources []capture.Source
	queue   *capture.Queue
	cancel  context.CancelFunc
	drained chan error    // Run's result once the queue is closed and empty
	written atomic.Uint64 // steps written to CAPTURE
	lost    atomic.Uint64 // steps that could not be written (a full disk)
	failing atomic.Bool   // the last write failed

	stopOnce sync.Once // a stop that could not finish is tried again
}

// New returns a Recorder; Start begins its redact stage.
func New(cfg Config) *Recorder {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.QueueSize <= 0 {
		cfg.QueueSize = 4096
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Recordings == nil {
		cfg.Recordings = recordings.New(cfg.JS, recordings.NewSealers(cfg.Keys), cfg.Logger)
	}
	return &Recorder{cfg: cfg, log: cfg.Logger.With("component", "recorder"), pub: events.NewPublisher(cfg.JS),
		recs: cfg.Recordings, seal: cfg.Recordings.Sealers()}
}

// checkFree refuses a recording when the store's disk is below MinFree.
func (r *Recorder) checkFree() error {
	if r.cfg.FreeSpace == nil {
		return nil
	}
	free, err := r.cfg.FreeSpace()
	if err != nil {
		r.log.Warn("could not tell the store's free space", "err", err)
		return nil
	}
	min := r.cfg.MinFree
	if min == 0 {
		min = store.MinFreeBytes
	}
	if free < min {
		return ops.Errorf(ops.CodeInternal, "the disk holding the data dir has %d MB free, under the %d MB a recording needs: free some space (or move the data dir), then start again; nothing was recorded", free>>20, min>>20)
	}
	return nil
}

// StartRecording implements the START_RECORDING op.
func (r *Recorder) StartRecording(ctx context.Context, req ops.StartRequest) (ops.Started, error) {
	channels, err := validateRecordingRequest(req.Mode, req.InterpretationRoute, req.Channels)
	if err != nil {
		return ops.Started{}, err
	}
	sources, err := r.cfg.Registry.Select(channels)
	if err != nil {
		var ue *capture.UnavailableError
		if errors.As(err, &ue) {
			return ops.Started{}, ops.Errorf(ops.CodeRecordingChannelUnavailable,
				"channel %s is unavailable on this machine: %s; run `reprise doctor` to see what each channel needs", ue.Channel, ue.Reason)
		}
		return ops.Started{}, err
	}
	if req.ConsentToken == "" {
		return ops.Started{}, ops.Errorf(ops.CodeConsentRequired, "no consent token: send REQUEST_RECORDING_CONSENT first, and start with the token it returns")
	}
	// Before the token is used: a full disk loses steps mid-recording.
	if err := r.checkFree(); err != nil {
		return ops.Started{}, err
	}
	// Probed before the token is consumed: a route that cannot work must
	// not use up the person's approval.
	route, probe := req.InterpretationRoute, (*events.RouteProbe)(nil)
	if r.cfg.Router != nil {
		p, err := r.cfg.Router.Route(ctx, req.InterpretationRoute, channels)
		if err != nil {
			return ops.Started{}, err
		}
		route, probe = p.Effective, &p
	}

	// Consuming the token and taking the active slot happen under one lock,
	// so of many starts with one token exactly one is checked first and wins.
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.cfg.Consent(ctx, req.ConsentToken, req.Mode, req.InterpretationRoute, channels); err != nil {
		return ops.Started{}, ops.Errorf(ops.CodeConsentRequired, "%v", err)
	}
	if r.active != nil {
		return ops.Started{}, ops.Errorf(ops.CodeRecordingAlreadyActive,
			"recording %s is still running; stop it (STOP_RECORDING or `reprise record stop`) before starting another", r.active.started.RecordingID)
	}
	id, err := newRecordingID()
	if err != nil {
		return ops.Started{}, err
	}
	started := events.RecordingStarted{
		RecordingID: id, Version: events.SchemaVersion, CreatedAt: events.Stamp(r.cfg.Now()),
		MachineID: r.cfg.MachineID, Mode: req.Mode, InterpretationRoute: route, Channels: channels, Probe: probe,
	}
	if _, err := r.pub.Publish(ctx, events.RecordingSubject(id, events.RecStarted), id+":started", &started); err != nil {
		return ops.Started{}, err
	}
	s, err := r.startSession(started, sources, 0)
	if err != nil {
		return ops.Started{}, err
	}
	r.active = s
	if started.Mode == capture.ModeCopilot {
		r.live.Store(id, struct{}{})
	}
	r.audit(ctx, "recording.started", map[string]string{"recording_id": id, "mode": req.Mode, "route": route, "channels": strings.Join(channels, ",")})
	r.log.Info("recording started", "recording_id", id, "mode", req.Mode, "route", route, "channels", channels)
	return ops.Started{RecordingID: id, InterpretationRoute: route}, nil
}

// startSession starts the sources of a recording whose last written step
// is lastSeq (0 for a new one).
func (r *Recorder) startSession(started events.RecordingStarted, sources []capture.Source, lastSeq uint64) (*session, error) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{started: started, queue: capture.NewQueue(r.cfg.QueueSize), cancel: cancel, drained: make(chan error, 1)}
	id := started.RecordingID
	seq := lastSeq
	go func() {
		s.drained <- s.queue.Run(ctx, func(step events.Step) error {
			seq++
			step.Seq = seq
			// A secret's value stops here, before anything is written.
			redact.Hygiene(&step)
			// Once a write failed (a full disk), the next steps try once
			// each until one is written, instead of holding the queue for
			// seconds a step while it overflows.
			attempts := 5
			if s.failing.Load() {
				attempts = 1
			}
			written := r.capture(ctx, id, &step, attempts)
			if was := s.failing.Swap(!written); was == written {
				tellStore(sources, !written)
			}
			if written {
				s.written.Add(1)
			} else {
				s.lost.Add(1)
			}
			return nil
		})
	}()
	cs := capture.Session{RecordingID: id, Mode: started.Mode, Channels: started.Channels}
	sink := sessionSink{Queue: s.queue, r: r, recID: id}
	for _, src := range sources {
		if err := src.Start(ctx, cs, sink); err != nil {
			s.stop(r.log)
			return nil, fmt.Errorf("start source %s: %w", src.Name(), err)
		}
		s.sources = append(s.sources, src)
	}
	return s, nil
}

// capture seals one step and writes it to CAPTURE, retrying a publish that
// fails: the daemon's own server is in-process, so a failure is brief. It
// reports whether the step was written; one that was not (a full disk) is
// counted lost, and its seq stays a gap that the stop summary accounts for.
func (r *Recorder) capture(ctx context.Context, recID string, step *events.Step, attempts int) bool {
	sealed, err := r.seal.SealStep(recID, recordings.SealCapture, step)
	if err != nil {
		r.log.Error("step lost: cannot seal it", "recording_id", recID, "seq", step.Seq, "err", err)
		return false
	}
	for attempt := range attempts {
		if _, err = r.pub.PublishBytes(ctx, events.CaptureSubject(recID), events.StepMsgID(recID, step.Seq), sealed); err == nil {
			return true
		}
		if ctx.Err() != nil {
			break
		}
		time.Sleep(time.Duration(10<<attempt) * time.Millisecond)
	}
	r.log.Error("step lost: capture publish failed", "recording_id", recID, "seq", step.Seq, "err", err)
	return false // keep the queue moving
}

// stop stops the sources and waits for the queue to reach CAPTURE.
func (s *session) stop(log *slog.Logger) {
	s.stopOnce.Do(func() { s.stopNow(log) })
}

func (s *session) stopNow(log *slog.Logger) {
	for _, src := range s.sources {
		if err := src.Stop(); err != nil {
			log.Warn("stop source", "source", src.Name(), "err", err)
		}
	}
	s.queue.Close()
	s.drain(log)
	s.cancel()
	// What is still queued is never written: lost, and counted so.
	if n := s.queue.Len(); n > 0 {
		s.lost.Add(uint64(n))
		log.Error("steps lost: still queued when the recording stopped", "recording_id", s.started.RecordingID, "steps", n)
	}
}

// drain waits for the queue to reach CAPTURE: as long as it shrinks and
// its writes succeed (a big recording on a slow machine), else 30 s at
// most (a full disk fails each write slowly), after which what is still
// queued is given up.
func (s *session) drain(log *slog.Logger) {
	start, last := time.Now(), s.queue.Len()
	for {
		select {
		case <-s.drained:
			return
		case <-time.After(5 * time.Second):
		}
		n := s.queue.Len()
		healthy := n < last && !s.failing.Load()
		last = n
		if healthy || time.Since(start) < 30*time.Second {
			continue
		}
		log.Error("capture queue did not drain", "recording_id", s.started.RecordingID, "queued", n)
		s.cancel()
		select {
		case <-s.drained:
		case <-time.After(10 * time.Second):
		}
		return
	}
}

// audit appends an entry; a failure is logged, and the op it records stands.
func (r *Recorder) audit(ctx context.Context, kind string, fields map[string]string) {
	if r.cfg.Audit == nil {
		return
	}
	if err := r.cfg.Audit.Append(ctx, kind, fields); err != nil {
		r.log.Error("audit entry not written", "kind", kind, "err", err)
	}
}

func validateRecordingRequest(mode, route string, channels []string) ([]string, error) {
	if mode != capture.ModeDemonstration && mode != capture.ModeCopilot {
		return nil, ops.Errorf(ops.CodeInvalidRequest, "mode must be %q or %q", capture.ModeDemonstration, capture.ModeCopilot)
	}
	if !slices.Contains(interpret.Routes, route) {
		return nil, ops.Errorf(ops.CodeInvalidRequest, "interpretation_route must be one of %s", strings.Join(interpret.Routes, ", "))
	}
	if len(channels) == 0 {
		return nil, ops.Errorf(ops.CodeInvalidRequest, "channels is empty: name at least one of %v", capture.KnownChannels())
	}
	for _, c := range channels {
		if !capture.KnownChannel(c) {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "channel %q is not one of %v", short(c), capture.KnownChannels())
		}
	}
	out := slices.Clone(channels)
	slices.Sort(out)
	return slices.Compact(out), nil
}

// newRecordingID returns "rec_" and a random (version 4) UUID.
func newRecordingID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("recording id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("rec_%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}

func short(s string) string {
	if len(s) > 32 {
		return s[:32] + "..."
	}
	return s
}

// FetchRecording implements the RECORDING_FETCH op.
func (r *Recorder) FetchRecording(ctx context.Context, req ops.RecordingRef) (*ops.Data, error) {
	return r.recs.Fetch(ctx, req.RecordingID)
}
