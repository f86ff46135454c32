package chrome

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// helloFresh is how recently the extension must have said hello for the
// browser channel to count as available.
const helloFresh = 2 * time.Minute

// maxSeen bounds the step ids remembered for deduplication.
const maxSeen = 1 << 16

// pendingGrace is how long Stop waits for frames that steps already name.
const pendingGrace = time.Second

// heldGrace is how long Stop waits for the steps the extension holds until
// their effect settles, once asked to settle them at once.
const heldGrace = 5 * time.Second

// Source is the browser channel. It listens for the extension for the
// daemon's whole life, and passes steps on only while a recording runs.
type Source struct {
	nc   *nats.Conn
	log  *slog.Logger
	subs []*nats.Subscription

	mu        sync.Mutex
	lastHello time.Time
	held      int  // steps the extension said it holds, at its last hello
	stopping  bool // Stop is waiting for them
	sess      *capture.Session
	started   time.Time
	sink      capture.Sink
	allowed   map[string]bool
	seen      map[string]bool
	book      *frameBook
	frames    chan struct{} // frames being stored
	storing   sync.WaitGroup
	failing   bool // the recorder's writes fail: the extension says so
}

var _ capture.StoreWatcher = (*Source)(nil)

// StoreFailing implements capture.StoreWatcher: the next hello tells the
// extension, whose badge then says FULL.
func (s *Source) StoreFailing(failing bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failing = failing
}

var _ capture.Source = (*Source)(nil)

// New starts listening on nc, the daemon's connection, for the extension.
func New(nc *nats.Conn, log *slog.Logger) (*Source, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Source{nc: nc, log: log.With("source", "chrome"), frames: make(chan struct{}, maxStoring)}
	for subj, h := range map[string]nats.MsgHandler{events.ExtensionHello: s.hello, events.ExtensionStep: s.step, events.ExtensionFrame: s.frame} {
		sub, err := nc.Subscribe(subj, h)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("listen for the extension on %s: %w", subj, err)
		}
		s.subs = append(s.subs, sub)
	}
	return s, nc.Flush()
}

// Close stops listening.
func (s *Source) Close() {
	for _, sub := range s.subs {
		_ = sub.Unsubscribe()
	}
}

// Name implements capture.Source.
func (s *Source) Name() string { return "chrome" }

// Channels implements capture.Source.
func (s *Source) Channels() []string { return []string{capture.ChannelBrowser} }

// Available implements capture.Source: the extension said hello recently.
func (s *Source) Available() (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastHello.IsZero() || time.Since(s.lastHello) > helloFresh {
		return false, "the reprise browser extension has not connected in the last 2 minutes; load it in Chrome and pair it with this daemon"
	}
	return true, ""
}

// Joined reports whether the extension knows that the recording id is on:
// it said hello since the recording started, and the answer told it so.
// Steps from the browser count only from then.
func (s *Source) Joined(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sess != nil && s.sess.RecordingID == id && s.lastHello.After(s.started)
}

// Start implements capture.Source. The allowed origins are the session's;
// with none, the first origin a step comes from is adopted, and steps from
// any other are dropped.
func (s *Source) Start(ctx context.Context, sess capture.Session, sink capture.Sink) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	cp := &sess
	s.sess, s.sink, s.started = cp, sink, time.Now()
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.sess == cp { // not a later session's
			s.sess, s.sink = nil, nil
		}
	})
	s.allowed, s.seen, s.stopping = map[string]bool{}, map[string]bool{}, false
	s.book = newFrameBook()
	for _, o := range sess.AllowedOrigins {
		if n, ok := normalizeOrigin(o); ok {
			s.allowed[n] = true
		}
	}
	return nil
}

// Stop implements capture.Source. The steps the extension holds until
// their effect settles (a submit and what followed it) are asked for and
// taken first, for up to heldGrace. It returns once the frames of the
// steps taken are stored, so a stopped recording's refs all resolve: a
// frame still on its way gets a moment to arrive.
func (s *Source) Stop() error {
	s.mu.Lock()
	s.stopping = s.sess != nil
	s.mu.Unlock()
	for deadline := time.Now().Add(heldGrace); ; time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		waiting := s.stopping && s.held > 0 && time.Since(s.lastHello) < time.Second && time.Now().Before(deadline)
		s.mu.Unlock()
		if !waiting {
			break
		}
	}
	for deadline := time.Now().Add(pendingGrace); ; time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		if s.book == nil || len(s.book.pending) == 0 || time.Now().After(deadline) {
			break
		}
		s.mu.Unlock()
	}
	if s.book != nil {
		pending, last := s.book.unresolved()
		for _, ref := range pending {
			s.store(ref, last)
		}
		if len(pending) > 0 && last == nil {
			s.log.Warn("steps name frames that never arrived", "steps", len(pending))
		}
	}
	s.sess, s.sink, s.book, s.stopping, s.failing = nil, nil, nil, false, false
	s.mu.Unlock()
	s.storing.Wait()
	return nil
}

func (s *Source) hello(m *nats.Msg) {
	var req HelloRequest
	_ = json.Unmarshal(m.Data, &req) // an older extension sends {}
	s.mu.Lock()
	s.lastHello = time.Now()
	s.held = max(req.Held, 0)
	h := Hello{AllowedOrigins: []string{}}
	if s.sess != nil {
		h.Recording, h.RecordingID, h.Stopping, h.StoreFailing = true, s.sess.RecordingID, s.stopping, s.failing
		for o := range s.allowed {
			h.AllowedOrigins = append(h.AllowedOrigins, o)
		}
	}
	s.mu.Unlock()
	s.respond(m, h)
}

// frame takes a frame the extension sent on its own: stored under the ref a
// step already gave it, or kept until a step names it.
func (s *Source) frame(m *nats.Msg) {
	var req FrameRequest
	dec := json.NewDecoder(bytes.NewReader(m.Data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		s.respond(m, StepReply{Error: "malformed frame request: want {id, frame}"})
		return
	}
	if req.ID == "" || len(req.ID) > 128 {
		s.respond(m, StepReply{Error: "frame id must be 1-128 characters"})
		return
	}
	var frame []byte
	if req.Frame != "" {
		var err error
		if frame, err = decodeImage(req.Frame); err != nil {
			s.respond(m, StepReply{Error: err.Error()})
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == nil {
		s.respond(m, StepReply{})
		return
	}
	s.store(s.book.arrived(req.ID, frame))
	s.respond(m, StepReply{OK: true, Recording: true})
}

func (s *Source) step(m *nats.Msg) {
	reply, err := s.take(m.Data)
	if err != nil {
		reply.Error = err.Error()
	}
	s.respond(m, reply)
}

// take validates a step request and hands the step to the recording.
func (s *Source) take(data []byte) (StepReply, error) {
	var req StepRequest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return StepReply{}, errors.New("malformed step request: want {id, origin, step, frame}")
	}
	if req.ID == "" || len(req.ID) > 128 {
		return StepReply{}, errors.New("step id must be 1-128 characters")
	}
	origin, ok := normalizeOrigin(req.Origin)
	if !ok {
		return StepReply{}, errors.New("origin must be scheme://host[:port]")
	}
	step, err := events.DecodeStepJSON(req.Step)
	if err != nil {
		return StepReply{}, err
	}
	var frame []byte
	if req.Frame != "" {
		if frame, err = decodeImage(req.Frame); err != nil {
			return StepReply{}, err
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == nil {
		return StepReply{OK: false, Recording: false}, nil
	}
	if s.seen[req.ID] {
		return StepReply{OK: true, Recording: true}, nil // a resend of a step already taken
	}
	if len(s.allowed) == 0 {
		s.allowed[origin] = true // the demonstrated origin
	}
	if !s.allowed[origin] {
		return StepReply{Recording: true}, errors.New("this origin is not one the recording allows")
	}
	step.Seq, step.Actor = 0, events.ActorHuman
	if step.TS < events.Stamp(s.started.Add(-time.Minute)) || step.TS > events.Stamp(time.Now().Add(time.Minute)) {
		step.TS = events.Stamp(time.Now())
	}
	var store []byte
	switch {
	case frame != nil:
		step.ScreenshotRef, store = s.book.inline(frame), frame
	case req.FrameID != "":
		step.ScreenshotRef, store = s.book.name(req.FrameID, req.FramePending)
	}
	if err := s.sink.Emit(*step); err != nil {
		return StepReply{Recording: true, Retry: errors.Is(err, capture.ErrSinkFull)}, err
	}
	s.store(step.ScreenshotRef, store)
	if len(s.seen) >= maxSeen {
		clear(s.seen)
	}
	s.seen[req.ID] = true
	return StepReply{OK: true, Recording: true}, nil
}

// respond answers the extension; a reply that does not reach it is the
// extension gone (it asks again at its next hello), so it is only logged.
func (s *Source) respond(m *nats.Msg, v any) {
	b, _ := json.Marshal(v)
	if err := m.Respond(b); err != nil {
		s.log.Debug("a reply did not reach the extension", "subject", m.Subject, "err", err)
	}
}

// normalizeOrigin returns scheme://host[:port] in lower case.
func normalizeOrigin(o string) (string, bool) {
	u, err := url.Parse(strings.TrimSuffix(o, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "file") || (u.Path != "" && u.Path != "/") {
		return "", false
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), true
}
