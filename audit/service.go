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
	"github.com/reprise-dev/reprise/ops"
)

// VerifyReply is the reply on events.LocalAuditVerify; a refusal is the local
// services' one envelope, ops.ErrorReply.
type VerifyReply struct {
	Report *Report `json:"report"`
}

// VerifyTimeout bounds one verification by the service; a chain of a
// million entries takes seconds.
const VerifyTimeout = 2 * time.Minute

// maxRequestSize bounds a request body; the only valid one is empty or {}.
const maxRequestSize = 1024

// ServiceName is the audit service's name in `nats micro ls`.
const ServiceName = "reprise-audit"

// Serve answers events.LocalAuditVerify on nc, verifying the AUDIT stream on js under
// key, until stop is called. checkpoint, when not nil, returns the head the
// daemon remembers (see Checkpoint); it is read before the stream, so
// entries appended during a verification are never reported as missing. A
// request must be empty or the JSON object {}; anything else is refused
// INVALID_REQUEST. Requests are answered one at a time.
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
	verify := func(ctx context.Context, body []byte) ([]byte, error) {
		if err := checkRequest(body); err != nil {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "%v", err)
		}
		var cp Checkpoint
		if checkpoint != nil {
			cp = checkpoint()
		}
		var vopts []VerifyOption
		if o.highWater != nil {
			vopts = append(vopts, AgainstHighWater(o.highWater()))
		}
		r, err := Verify(ctx, js, key, cp, vopts...)
		if err != nil {
			return nil, ops.Errorf(ops.CodeInternal, "%v", err)
		}
		if o.unwritten != nil {
			r.addUnwritten(o.unwritten())
		}
		return json.Marshal(VerifyReply{Report: &r})
	}
	svc, err := ops.ServeLocal(nc, ops.LocalService{
		Name: ServiceName, Description: "verifies the audit log's chain for the local CLI",
		Endpoints: []ops.Endpoint{{Name: "verify", Subject: events.LocalAuditVerify, Timeout: VerifyTimeout, Handle: verify}},
	})
	if err != nil {
		return nil, fmt.Errorf("audit service: %w", err)
	}
	return func() { _ = svc.Stop() }, nil
}

// ServeOption adds to what Serve's verification reports.
type ServeOption func(*serveOptions)

type serveOptions struct {
	unwritten func() Unwritten
	highWater func() Checkpoint
}

// Unwritten counts the entries the daemon could not append (a full disk):
// they are in no chain, so no MAC can show them missing.
type Unwritten struct {
	// Kept are waiting to be written before any later entry: in the
	// pending file, or in memory where that file could not be written.
	Kept uint64
	// Lost could not even be kept, since the daemon started.
	Lost uint64
}

// WithUnwritten makes verification report the entries the daemon could
// not append, as n counts them when a verification starts.
func WithUnwritten(n func() Unwritten) ServeOption {
	return func(o *serveOptions) { o.unwritten = n }
}

// WithHighWater makes verification check the chain against the head of the
// daemon's high-water mark (see AgainstHighWater), read, like the
// checkpoint, before the stream.
func WithHighWater(hw func() Checkpoint) ServeOption {
	return func(o *serveOptions) { o.highWater = hw }
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
// stream (an *ops.Error).
func RequestVerify(ctx context.Context, nc *nats.Conn) (Report, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, VerifyTimeout+10*time.Second)
		defer cancel()
	}
	var r VerifyReply
	err := ops.AskJSON(ctx, nc, events.LocalAuditVerify, nil, &r)
	if errors.Is(err, nats.ErrNoResponders) {
		return Report{}, fmt.Errorf("%s: the daemon does not serve audit verification; restart it with a version that does", events.LocalAuditVerify)
	}
	if err != nil {
		return Report{}, fmt.Errorf("%s: %w", events.LocalAuditVerify, err)
	}
	if r.Report == nil {
		return Report{}, fmt.Errorf("%s: the reply has no report", events.LocalAuditVerify)
	}
	return *r.Report, nil
}
