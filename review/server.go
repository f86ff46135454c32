// Package review serves the local page on which a person reviews one
// recording before a skill may be built from it (SPEC sections 5 and 8): they
// see every step with its frame, remove steps, redact values, and apply the
// review (APPLY_RECORDING_REVIEW). The page listens on 127.0.0.1 only and is
// reachable only by the browser that opened its one-time link; auth.go holds
// the rules.
package review

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/events"
)

// Source is what the page needs from the daemon. Its methods may be called
// concurrently, one call per HTTP request.
type Source interface {
	// Recording returns the recording to review, after capture redaction.
	Recording(ctx context.Context, recID string) (*events.Recording, error)
	// Frame returns the PNG or JPEG bytes of a step's pre-action frame.
	Frame(ctx context.Context, recID, ref string) ([]byte, error)
	// Apply applies the person's review and returns how many steps remain.
	Apply(ctx context.Context, recID string, removed, redacted []uint64) (stepsKept int, err error)
}

// Options configures Start.
type Options struct {
	// Logger receives the server's events under the group "review"; never a
	// value, a token or a pixel. Nil discards them.
	Logger *slog.Logger
}

// Log keys.
const (
	keyRecording = "recording_id"
	keyPath      = "path"
	keyReason    = "reason"
	keyStatus    = "status"
	keyErr       = "err"
	keySeq       = "seq"
	keyAddr      = "addr"
	keySteps     = "steps"
	keyRemoved   = "removed"
	keyRedacted  = "redacted"
	keyTemplate  = "template"
)

const (
	// applyTimeout bounds one APPLY_RECORDING_REVIEW round trip, so a stuck
	// daemon does not hold the page's only apply slot forever.
	applyTimeout = 60 * time.Second
	closeTimeout = 5 * time.Second
)

// Server is the running review page for one recording.
type Server struct {
	src    Source
	rec    *events.Recording
	steps  map[uint64]*events.Step
	log    *slog.Logger
	srv    *http.Server
	mux    *http.ServeMux
	host   string // "127.0.0.1:PORT", the only Host header accepted
	origin string // "http://127.0.0.1:PORT"
	url    string
	ctx    context.Context // cancelled by Close; bounds calls to the Source
	cancel context.CancelFunc
	stop   func() bool // detaches Close from Start's ctx

	mu        sync.Mutex
	token     string // the URL's one-time token; emptied once used
	session   string // valid only once exchanged
	exchanged bool
	csrf      string
	state     state

	done      chan struct{}
	doneOnce  sync.Once
	closeOnce sync.Once
	closeErr  error
}

type state int

const (
	stateOpen     state = iota
	stateApplying       // one apply in flight; a second is refused
	stateApplied        // everything is refused from now on
)

// Start fetches the recording, listens on a random port of 127.0.0.1 and
// serves the review page. Cancelling ctx closes the server.
func Start(ctx context.Context, src Source, recID string, opts Options) (*Server, error) {
	if src == nil {
		return nil, errors.New("review: Source is nil")
	}
	if recID == "" {
		return nil, errors.New("review: recording id is empty: a recording's id is needed")
	}
	rec, err := src.Recording(ctx, recID)
	if err != nil {
		return nil, fmt.Errorf("fetch recording %s: %w", recID, err)
	}
	if rec == nil {
		return nil, fmt.Errorf("fetch recording %s: the daemon returned no recording", recID)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.WithGroup("review")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on 127.0.0.1: %w", err)
	}
	host := "127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &Server{
		src: src, rec: rec, steps: make(map[uint64]*events.Step, len(rec.Steps)),
		log: log.With(keyRecording, rec.RecordingID), host: host, origin: "http://" + host,
		ctx: sctx, cancel: cancel,
		token: randomToken(), session: randomToken(), csrf: randomToken(),
		done: make(chan struct{}),
	}
	for i := range rec.Steps {
		s.steps[rec.Steps[i].Seq] = &rec.Steps[i]
	}
	s.url = s.origin + "/review?token=" + s.token
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /review", s.page)
	s.mux.HandleFunc("GET /frame/{seq}", s.frame)
	s.mux.HandleFunc("POST /apply", s.apply)
	s.mux.HandleFunc("GET "+stylePath, serveStyle)
	s.srv = &http.Server{
		Handler:           http.HandlerFunc(s.serve),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      applyTimeout + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    32 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
		BaseContext:       func(net.Listener) context.Context { return sctx },
	}
	go func() {
		if err := s.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("review page stopped serving", keyErr, err)
		}
	}()
	s.stop = context.AfterFunc(ctx, func() { _ = s.Close() })
	s.log.Info("review page listening", keyAddr, host, keySteps, len(rec.Steps))
	return s, nil
}

// URL returns the page's address with its one-time token; it opens the page
// once, in one browser.
func (s *Server) URL() string { return s.url }

// Done is closed after a successful apply, or by Close.
func (s *Server) Done() <-chan struct{} { return s.done }

// Close stops the server: calls to the Source in flight are cancelled, and
// responses in flight get a few seconds to finish. It is safe to call more
// than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.stop()
		s.markDone()
		// Calls to the Source end first, so a stuck daemon does not hold
		// Shutdown for its whole grace period.
		s.cancel()
		ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
		defer cancel()
		if err := s.srv.Shutdown(ctx); err != nil {
			s.closeErr = errors.Join(err, s.srv.Close())
		}
	})
	return s.closeErr
}

func (s *Server) markDone() { s.doneOnce.Do(func() { close(s.done) }) }

// serve is the gate every request passes before the routes: the Host, the
// applied state, the token exchange, then the session.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	setSecurityHeaders(w.Header())
	if r.Host != s.host {
		s.refuse(w, r, http.StatusForbidden, "host")
		return
	}
	if s.applied() && (r.URL.Path != stylePath || !s.hasSession(r)) {
		s.refuse(w, r, http.StatusGone, "applied")
		return
	}
	if r.URL.Path == "/review" && r.URL.Query().Has("token") {
		s.exchange(w, r)
		return
	}
	if !s.hasSession(r) {
		s.refuse(w, r, http.StatusForbidden, "session")
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) applied() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state == stateApplied
}
