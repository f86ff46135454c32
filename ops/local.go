package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/reprise-dev/reprise/internal/chunked"
)

// The local services are the daemon's request/reply services for the local
// CLI, on subjects under the local prefix: audit, consent, skills,
// recordings, status. Each is a service of nats.go's services framework
// (micro), so `nats micro ls|info|stats` lists it with its endpoints,
// requests, errors and latencies. Every refusal is one envelope: an
// ErrorReply body with micro's error headers, read by ReplyError.

// LocalVersion is the version every local service reports to `nats micro
// info`: that of the request and reply bodies, not of the daemon.
const LocalVersion = "1.0.0"

// DefaultLocalTimeout bounds one request of an Endpoint without a Timeout.
const DefaultLocalTimeout = 10 * time.Second

// maxHeaderMessage bounds the message in the Nats-Service-Error header; the
// body carries it whole.
const maxHeaderMessage = 512

// ErrorReply is the body of every local service's refusal:
// {"error": {"code", "message"}}. It is sent with micro's error headers,
// Nats-Service-Error-Code (the code) and Nats-Service-Error (the message on
// one line), so `nats micro stats` counts it.
type ErrorReply struct {
	Error *Error `json:"error"`
}

// Endpoint is one subject of a local service.
type Endpoint struct {
	// Name is what `nats micro info` lists: "verify", "list".
	Name string
	// Subject is where the endpoint answers.
	Subject string
	// Timeout bounds one request; DefaultLocalTimeout when zero.
	Timeout time.Duration
	// Handle answers a request's body with the reply's bytes (JSON wraps a
	// value), sent in parts when they do not fit one message. An *Error is
	// sent as the refusal; any other error is logged and sent as INTERNAL,
	// pointing to the daemon's log. Requests on one endpoint are handled
	// one at a time, unless Concurrent.
	Handle func(ctx context.Context, body []byte) ([]byte, error)
	// Concurrent handles each request on its own goroutine: for an
	// endpoint whose requests may run long (a script), so one does not
	// keep the next from being answered (refused as busy, say).
	Concurrent bool
}

// LocalService is one package's local service.
type LocalService struct {
	// Name is the service's name in `nats micro ls`: reprise-<package>.
	Name        string
	Description string
	Endpoints   []Endpoint
	// Logger gets a line per failed request or lost reply, never a body.
	Logger *slog.Logger
}

// Local is a running local service.
type Local struct {
	micro.Service
	nc *nats.Conn
}

// ServeLocal serves svc on nc until Stop or until nc closes.
func ServeLocal(nc *nats.Conn, svc LocalService) (*Local, error) {
	if nc == nil {
		return nil, fmt.Errorf("%s: a connection is required", svc.Name)
	}
	log := svc.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("service", svc.Name)
	ms, err := micro.AddService(nc, micro.Config{Name: svc.Name, Version: LocalVersion, Description: svc.Description})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", svc.Name, err)
	}
	l := &Local{Service: ms, nc: nc}
	for _, ep := range svc.Endpoints {
		h := &localHandler{ep: ep, nc: nc, log: log.With("endpoint", ep.Name)}
		if h.ep.Timeout <= 0 {
			h.ep.Timeout = DefaultLocalTimeout
		}
		if err := ms.AddEndpoint(ep.Name, h, micro.WithEndpointSubject(ep.Subject)); err != nil {
			_ = l.Stop()
			return nil, fmt.Errorf("%s %s: %w", svc.Name, ep.Subject, err)
		}
	}
	// The server knows of every endpoint before the first request.
	if err := nc.Flush(); err != nil {
		_ = l.Stop()
		return nil, fmt.Errorf("%s: %w", svc.Name, err)
	}
	return l, nil
}

// Stop ends the service and returns once the server has dropped its
// subscriptions, so a request after it finds no responder rather than
// waiting for one. It is safe to call twice.
func (l *Local) Stop() error {
	if l == nil || l.Service.Stopped() {
		return nil
	}
	err := l.Service.Stop()
	if ferr := l.nc.Flush(); err == nil && !errors.Is(ferr, nats.ErrConnectionClosed) {
		err = ferr
	}
	return err
}

type localHandler struct {
	ep  Endpoint
	nc  *nats.Conn
	log *slog.Logger
}

// Handle implements micro.Handler.
func (h *localHandler) Handle(req micro.Request) {
	if h.ep.Concurrent {
		// The request object is micro's, which counts it when Handle
		// returns: the answer goes on the raw reply subject instead.
		data, to := slices.Clone(req.Data()), req.Reply()
		go h.answer(data, to)
		return
	}
	reply, err := h.run(req.Data())
	if err != nil {
		if err := respondError(req, h.refusal(err)); err != nil {
			h.log.Warn("a refusal did not reach the requester", "err", err)
		}
		return
	}
	if err := chunked.RespondTo(h.nc, req.Reply(), reply, func(b []byte) error { return req.Respond(b) }); err != nil {
		h.log.Error("a reply did not reach the requester", "bytes", len(reply), "err", err)
	}
}

// answer is Handle for a Concurrent endpoint: the reply, or the refusal
// with micro's error headers, published on the requester's reply subject.
func (h *localHandler) answer(body []byte, to string) {
	if to == "" {
		return
	}
	reply, err := h.run(body)
	if err != nil {
		e := h.refusal(err)
		b, merr := json.Marshal(ErrorReply{Error: e})
		if merr != nil {
			return
		}
		msg := &nats.Msg{Subject: to, Data: b, Header: nats.Header{}}
		msg.Header.Set(micro.ErrorCodeHeader, headerValue(e.Code, CodeInternal))
		msg.Header.Set(micro.ErrorHeader, headerValue(e.Message, e.Code))
		if err := h.nc.PublishMsg(msg); err != nil {
			h.log.Warn("a refusal did not reach the requester", "err", err)
		}
		return
	}
	if err := chunked.RespondTo(h.nc, to, reply, func(b []byte) error { return h.nc.Publish(to, b) }); err != nil {
		h.log.Error("a reply did not reach the requester", "bytes", len(reply), "err", err)
	}
}

// run calls the endpoint's handler under its timeout, keeping any panic
// from the daemon.
func (h *localHandler) run(body []byte) (reply []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			reply, err = nil, errors.New("the handler panicked")
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), h.ep.Timeout)
	defer cancel()
	return h.ep.Handle(ctx, body)
}

// refusal is err as the requester sees it: an *Error as is, anything else
// as INTERNAL, whose detail goes to the log only.
func (h *localHandler) refusal(err error) *Error {
	var e *Error
	if errors.As(err, &e) && e.Code != "" {
		return e
	}
	h.log.Error("a local request failed", "err", err)
	return Errorf(CodeInternal, "the daemon failed to answer %s; see its log, and retry", h.ep.Subject)
}

// respondError sends e as the one refusal envelope.
func respondError(req micro.Request, e *Error) error {
	body, err := json.Marshal(ErrorReply{Error: e})
	if err != nil {
		return err
	}
	return req.Error(headerValue(e.Code, CodeInternal), headerValue(e.Message, e.Code), body)
}

// headerValue is s fit for a header value: one line of printable
// characters, bounded; fallback when nothing is left.
func headerValue(s, fallback string) string {
	s = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, s)
	if len(s) > maxHeaderMessage {
		cut := maxHeaderMessage
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	if s = strings.TrimSpace(s); s == "" {
		return fallback
	}
	return s
}

// JSON is a handler's reply as JSON: the value, or err as it is.
func JSON[T any](v T, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// DecodeLocal strictly decodes a local request's body into dst, as
// DecodePayload does; an empty body reads as {}.
func DecodeLocal(what string, body []byte, dst any) *Error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	return DecodePayload(what, body, dst)
}

// Ask sends body to the local service on subject and returns its reply,
// joined when it came in parts. A refusal is returned as *Error; a subject
// nothing serves as an error wrapping nats.ErrNoResponders.
func Ask(ctx context.Context, nc *nats.Conn, subject string, body []byte) ([]byte, error) {
	m, err := chunked.Request(ctx, nc, subject, body)
	if err != nil {
		return nil, err
	}
	if err := ReplyError(m); err != nil {
		return nil, err
	}
	return m.Data, nil
}

// AskJSON is Ask with req sent as JSON (nil: an empty body) and the reply
// decoded into reply (nil: not read).
func AskJSON(ctx context.Context, nc *nats.Conn, subject string, req, reply any) error {
	var body []byte
	if req != nil {
		var err error
		if body, err = json.Marshal(req); err != nil {
			return fmt.Errorf("encode the request: %w", err)
		}
	}
	b, err := Ask(ctx, nc, subject, body)
	if err != nil || reply == nil {
		return err
	}
	if err := json.Unmarshal(b, reply); err != nil {
		return fmt.Errorf("malformed reply: %w", err)
	}
	return nil
}

// ReplyError is the one reader of a local service's refusal: the *Error m
// carries, or nil when m is not a refusal. The body's envelope is read
// first; the headers alone still make a refusal.
func ReplyError(m *nats.Msg) error {
	code := m.Header.Get(micro.ErrorCodeHeader)
	if code == "" {
		return nil
	}
	var r ErrorReply
	if json.Unmarshal(m.Data, &r) == nil && r.Error != nil && r.Error.Code != "" {
		return r.Error
	}
	return &Error{Code: code, Message: m.Header.Get(micro.ErrorHeader)}
}
