package ops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/chunked"
)

// Service does the work behind each op. A returned *Error is sent as is;
// any other error becomes INTERNAL with a generic message, so internals never
// reach the platform. Methods are called concurrently.
type Service interface {
	RequestConsent(ctx context.Context, req ConsentRequest) (ConsentResult, error)
	StartRecording(ctx context.Context, req StartRequest) (Started, error)
	StopRecording(ctx context.Context, req RecordingRef) (Summary, error)
	FetchRecording(ctx context.Context, req RecordingRef) (*Data, error)
	ApplyReview(ctx context.Context, req ReviewRequest) (ReviewApplied, error)
}

// CopilotService is what a shim serves of the co-pilot ops; a Service
// without it answers them UNKNOWN_TYPE.
type CopilotService interface {
	ClarifyPrompt(ctx context.Context, req ClarifyRequest) (Questions, error)
	InterpretTurn(ctx context.Context, req InterpretRequest) (Interpretation, error)
	DryRunReplay(ctx context.Context, req DryRunRequest) (DryRunResult, error)
}

// ComputerService is what a shim serves of COMPUTER_RUN; a Service
// without it answers UNKNOWN_TYPE.
type ComputerService interface {
	ComputerRun(ctx context.Context, req ComputerRunRequest) (ComputerRunResult, error)
}

// ReplyTTL is how long a request id's first answer is kept.
const ReplyTTL = 10 * time.Minute

// DefaultMaxConcurrent is the in-flight limit when Config leaves it zero.
const DefaultMaxConcurrent = 16

// Config configures a Server.
type Config struct {
	// Subject is shim.<machine_id>.ops.
	Subject string
	// MaxConcurrent bounds requests in flight; past it the server answers BUSY.
	MaxConcurrent int
	// Timeout bounds one request; consent may wait this long for the person.
	Timeout time.Duration
	// Logger gets one line per refused or failed request, without payloads.
	Logger *slog.Logger
}

// Server answers wire ops on one subject.
type Server struct {
	cfg     Config
	svc     Service
	replies jetstream.KeyValue
	log     *slog.Logger
	sem     chan struct{}
	sub     *nats.Subscription
	nc      *nats.Conn // the connection Serve answers on
	wg      sync.WaitGroup

	inflight, peak atomic.Int64
	flights        sync.Map // request key -> *flight, for concurrent repeats of one id
}

type flight struct {
	done  chan struct{}
	reply []byte
}

// NewServer returns a server for svc; it ensures the replies bucket exists.
func NewServer(ctx context.Context, js jetstream.JetStream, svc Service, cfg Config) (*Server, error) {
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = DefaultMaxConcurrent
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 3 * time.Minute
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      events.BucketOpsReplies,
		Description: "first answer to each wire-op request id, for idempotent retries",
		TTL:         ReplyTTL,
		Storage:     jetstream.FileStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("ops replies bucket: %w", err)
	}
	return &Server{cfg: cfg, svc: svc, replies: kv, log: log.With("component", "ops"), sem: make(chan struct{}, cfg.MaxConcurrent)}, nil
}

// Serve subscribes on the ops subject.
func (s *Server) Serve(nc *nats.Conn) error {
	s.nc = nc
	sub, err := nc.Subscribe(s.cfg.Subject, s.receive)
	if err != nil {
		return fmt.Errorf("serve ops on %s: %w", s.cfg.Subject, err)
	}
	// The default pending limits would drop a burst of requests silently;
	// every request must be answered, even if only with BUSY.
	if err := sub.SetPendingLimits(-1, 64<<20); err != nil {
		return fmt.Errorf("serve ops: %w", err)
	}
	s.sub = sub
	return nc.Flush()
}

// Close stops taking requests and waits for those in flight.
func (s *Server) Close() {
	if s.sub != nil {
		_ = s.sub.Unsubscribe()
	}
	s.wg.Wait()
}

// Peak is the most requests that were ever in flight at once.
func (s *Server) Peak() int64 { return s.peak.Load() }

// receive runs on the subscription's goroutine: it must hand off at once.
func (s *Server) receive(m *nats.Msg) {
	if m.Reply == "" {
		return // a publish, not a request: there is nobody to answer
	}
	select {
	case s.sem <- struct{}{}:
	default:
		env, _ := DecodeEnvelope(m.Data)
		s.respond(m, EncodeError(env.ID, Errorf(CodeBusy, "%d requests are in flight, the most this shim takes; retry shortly with the same id", s.cfg.MaxConcurrent)))
		return
	}
	n := s.inflight.Add(1)
	for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
	}
	s.wg.Add(1)
	go func() {
		defer func() { s.inflight.Add(-1); <-s.sem; s.wg.Done() }()
		s.respond(m, s.handle(m.Data))
	}()
}

func (s *Server) respond(m *nats.Msg, reply []byte) {
	if err := chunked.Respond(s.nc, m, reply); err != nil {
		s.log.Error("a wire op's reply did not reach the requester", "bytes", len(reply), "err", err)
	}
}

// handle answers one request, once per request id.
func (s *Server) handle(data []byte) []byte {
	env, bad := DecodeEnvelope(data)
	if bad != nil {
		s.log.Info("refused a malformed request", "code", bad.Code)
		return EncodeError(env.ID, bad)
	}
	key := replyKey(env.Type, env.ID)
	f := &flight{done: make(chan struct{})}
	if prior, loaded := s.flights.LoadOrStore(key, f); loaded {
		p := prior.(*flight)
		<-p.done
		return p.reply
	}
	defer func() { close(f.done); s.flights.Delete(key) }()

	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Timeout)
	defer cancel()
	if e, err := s.replies.Get(ctx, key); err == nil {
		f.reply = e.Value()
		return f.reply
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		s.log.Warn("read a kept reply", "err", err)
	}
	reply, keep := s.dispatch(ctx, env)
	// A fetch is read-only, so its retry needs no kept answer; and its
	// answer is a whole recording, which must not sit on disk unsealed.
	if keep && env.Type != TypeFetch {
		if _, err := s.replies.Put(ctx, key, reply); err != nil {
			s.log.Warn("keep a reply for retries", "type", env.Type, "err", err)
		}
	}
	f.reply = reply
	return reply
}

// replyKey turns a request's op and id into a KV key: an id reused with
// another op is another request, never answered with the first op's reply.
func replyKey(op, id string) string {
	sum := sha256.Sum256([]byte(op + "\x00" + id))
	return hex.EncodeToString(sum[:16])
}

// dispatch routes a request to its op. keep says whether the answer is the
// request's for good: a transient failure is not kept, so a retry with the
// same id can succeed.
func (s *Server) dispatch(ctx context.Context, env Envelope) (reply []byte, keep bool) {
	switch env.Type {
	case TypeRequestConsent:
		return call(s, ctx, env, TypeConsentResult, s.svc.RequestConsent)
	case TypeStart:
		return call(s, ctx, env, TypeStarted, s.svc.StartRecording)
	case TypeStop:
		return call(s, ctx, env, TypeSummary, s.svc.StopRecording)
	case TypeFetch:
		return call(s, ctx, env, TypeData, s.svc.FetchRecording)
	case TypeApplyReview:
		return call(s, ctx, env, TypeReviewApplied, s.svc.ApplyReview)
	case TypeInterpretTurn, TypeClarifyPrompt, TypeDryRunReplay:
		cs, ok := s.svc.(CopilotService)
		if !ok {
			break
		}
		switch env.Type {
		case TypeClarifyPrompt:
			return call(s, ctx, env, TypeQuestions, cs.ClarifyPrompt)
		case TypeInterpretTurn:
			return call(s, ctx, env, TypeInterpretation, cs.InterpretTurn)
		default:
			return call(s, ctx, env, TypeDryRunResult, cs.DryRunReplay)
		}
	case TypeComputerRun:
		if cs, ok := s.svc.(ComputerService); ok {
			return call(s, ctx, env, TypeComputerResult, cs.ComputerRun)
		}
		return EncodeError(env.ID, Errorf(CodeUnknownType, "%s is not served by this shim", env.Type)), true
	case TypeLocalLLM:
		return EncodeError(env.ID, Errorf(CodeInterpretationUnavailable, "LOCAL_LLM_COMPLETION needs a local model, which this shim does not serve yet")), true
	}
	if env.Type == TypeInterpretTurn || env.Type == TypeClarifyPrompt || env.Type == TypeDryRunReplay {
		return EncodeError(env.ID, Errorf(CodeUnknownType, "%s is a co-pilot op this shim does not serve", env.Type)), true
	}
	return EncodeError(env.ID, Errorf(CodeUnknownType, "%s is not a wire op; see SPEC section 5 for the request types", quote(env.Type))), true
}

// call decodes the payload strictly, runs op, and encodes its answer.
func call[P, R any](s *Server, ctx context.Context, env Envelope, replyType string, op func(context.Context, P) (R, error)) ([]byte, bool) {
	var p P
	if bad := DecodePayload(env.Type, env.Payload, &p); bad != nil {
		return EncodeError(env.ID, bad), true
	}
	r, err := op(ctx, p)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return EncodeError(env.ID, e), e.Code != CodeBusy && e.Code != CodeInternal
		}
		s.log.Error("wire op failed", "type", env.Type, "err", err)
		return EncodeError(env.ID, Errorf(CodeInternal, "the shim failed to do %s; retry with the same id, and see the daemon's log if it persists", env.Type)), false
	}
	b, err := EncodeReply(replyType, env.ID, r)
	if err != nil {
		s.log.Error("encode a reply", "type", replyType, "err", err)
		return EncodeError(env.ID, Errorf(CodeInternal, "the shim could not encode its %s reply", replyType)), false
	}
	return b, true
}
