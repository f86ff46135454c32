package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
)

// SubjectVerify is where the daemon answers `reprise audit verify`. It sits
// under the local prefix: the local CLI may ask, the platform cannot.
const SubjectVerify = events.LocalSubjectPrefix + ".audit.verify"

// Error codes of the verify service.
const (
	CodeInvalidRequest = "INVALID_REQUEST"
	CodeInternal       = "INTERNAL"
)

// ServiceError is the service's refusal.
type ServiceError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error implements error.
func (e *ServiceError) Error() string { return e.Message }

// VerifyReply is the reply on SubjectVerify: a Report, or an error.
type VerifyReply struct {
	Report *Report       `json:"report,omitempty"`
	Error  *ServiceError `json:"error,omitempty"`
}

// VerifyTimeout bounds one verification by the service; a chain of a
// million entries takes seconds.
const VerifyTimeout = 2 * time.Minute

// maxRequestSize bounds a request body; the only valid one is empty or {}.
const maxRequestSize = 1024

// Serve answers SubjectVerify on nc, verifying the AUDIT stream on js under
// key, until stop is called. checkpoint, when not nil, returns the head the
// daemon remembers (see Checkpoint); it is read before the stream, so
// entries appended during a verification are never reported as missing. A
// request must be empty or the JSON object {}; anything else gets an
// INVALID_REQUEST reply. Requests are answered one at a time.
func Serve(nc *nats.Conn, js jetstream.JetStream, key []byte, checkpoint func() Checkpoint, opts ...ServeOption) (stop func(), err error) {
	var o serveOptions
	for _, opt := range opts {
		opt(&o)
	}
	if nc == nil || js == nil {
		return nil, errors.New("audit service: a connection and a JetStream context are required")
	}
	if err := checkKey(key); err != nil {
		return nil, fmt.Errorf("audit service: %w", err)
	}
	key = bytes.Clone(key)
	sub, err := nc.Subscribe(SubjectVerify, func(m *nats.Msg) {
		r := answer(m.Data, func(ctx context.Context) (Report, error) {
			var cp Checkpoint
			if checkpoint != nil {
				cp = checkpoint()
			}
			r, err := Verify(ctx, js, key, cp)
			if err == nil && o.unwritten != nil {
				r.addUnwritten(o.unwritten())
			}
			return r, err
		})
		b, err := json.Marshal(r)
		if err != nil {
			b = []byte(`{"error":{"code":"INTERNAL","message":"could not encode the reply"}}`)
		}
		_ = m.Respond(b)
	})
	if err != nil {
		return nil, fmt.Errorf("audit service %s: %w", SubjectVerify, err)
	}
	// stop returns once the server has dropped the subscription, so a
	// request after it finds no responder rather than waiting for one.
	stop = func() {
		_ = sub.Unsubscribe()
		_ = nc.Flush()
	}
	if err := nc.Flush(); err != nil {
		stop()
		return nil, fmt.Errorf("audit service: %w", err)
	}
	return stop, nil
}

// ServeOption adds to what Serve's verification reports.
type ServeOption func(*serveOptions)

type serveOptions struct{ unwritten func() uint64 }

// WithUnwritten makes verification report the entries the daemon could
// not append (a full disk): they are in no chain, so no MAC can show them
// missing.
func WithUnwritten(n func() uint64) ServeOption {
	return func(o *serveOptions) { o.unwritten = n }
}

// answer checks the request and runs verify, keeping any panic from the
// daemon.
func answer(body []byte, verify func(context.Context) (Report, error)) (r VerifyReply) {
	if err := checkRequest(body); err != nil {
		return VerifyReply{Error: &ServiceError{Code: CodeInvalidRequest, Message: err.Error()}}
	}
	defer func() {
		if p := recover(); p != nil {
			r = VerifyReply{Error: &ServiceError{Code: CodeInternal, Message: "the audit service failed on this request; see the daemon's log"}}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), VerifyTimeout)
	defer cancel()
	rep, err := verify(ctx)
	if err != nil {
		return VerifyReply{Error: &ServiceError{Code: CodeInternal, Message: err.Error()}}
	}
	return VerifyReply{Report: &rep}
}

// checkRequest accepts an empty body or {} and nothing else.
func checkRequest(body []byte) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if len(body) > maxRequestSize {
		return fmt.Errorf("request of %d bytes is too large: send an empty body or {}", len(body))
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var req struct{}
	if err := dec.Decode(&req); err != nil {
		return fmt.Errorf("malformed request: %v: send an empty body or {}", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("malformed request: trailing data: send an empty body or {}")
	}
	return nil
}

// RequestVerify asks the daemon on nc (the local CLI's connection) to
// verify the audit log and returns its Report. Tampering is in the Report;
// the error is for a daemon that could not be asked or could not read the
// stream.
func RequestVerify(ctx context.Context, nc *nats.Conn) (Report, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, VerifyTimeout+10*time.Second)
		defer cancel()
	}
	m, err := nc.RequestWithContext(ctx, SubjectVerify, nil)
	if errors.Is(err, nats.ErrNoResponders) {
		return Report{}, fmt.Errorf("%s: the daemon does not serve audit verification; restart it with a version that does", SubjectVerify)
	}
	if err != nil {
		return Report{}, fmt.Errorf("%s: %w", SubjectVerify, err)
	}
	var r VerifyReply
	if err := json.Unmarshal(m.Data, &r); err != nil {
		return Report{}, fmt.Errorf("%s: malformed reply: %w", SubjectVerify, err)
	}
	if r.Error != nil {
		return Report{}, fmt.Errorf("%s: %w", SubjectVerify, r.Error)
	}
	if r.Report == nil {
		return Report{}, fmt.Errorf("%s: reply has neither a report nor an error", SubjectVerify)
	}
	return *r.Report, nil
}
