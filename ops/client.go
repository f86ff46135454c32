package ops

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/internal/chunked"
)

// Client sends wire ops to a shim, as the local CLI or a platform would.
type Client struct {
	nc      *nats.Conn
	subject string
}

// NewClient returns a client for the shim whose ops subject is subject.
func NewClient(nc *nats.Conn, subject string) *Client { return &Client{nc: nc, subject: subject} }

// Call sends a request of type typ with payload under a fresh id, waits for
// the reply until ctx ends, and decodes its payload into out. An ERROR reply
// is returned as *Error.
func (c *Client) Call(ctx context.Context, typ string, payload, out any) error {
	id, err := newRequestID()
	if err != nil {
		return err
	}
	return c.CallID(ctx, id, typ, payload, out)
}

// CallID is Call with the caller's request id, for retries that must be
// answered once.
func (c *Client) CallID(ctx context.Context, id, typ string, payload, out any) error {
	body, err := EncodeReply(typ, id, payload)
	if err != nil {
		return err
	}
	m, err := chunked.Request(ctx, c.nc, c.subject, body)
	if err != nil {
		return fmt.Errorf("%s: %w", typ, err)
	}
	var env Envelope
	if err := json.Unmarshal(m.Data, &env); err != nil {
		return fmt.Errorf("%s: the shim's reply is not an envelope: %w", typ, err)
	}
	if env.ID != id {
		return fmt.Errorf("%s: reply for request %q, not %q", typ, env.ID, id)
	}
	if env.Type == TypeError {
		var e Error
		if err := json.Unmarshal(env.Payload, &e); err != nil {
			return fmt.Errorf("%s: malformed ERROR reply: %w", typ, err)
		}
		return &e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.Payload, out); err != nil {
		return fmt.Errorf("%s: malformed %s reply: %w", typ, env.Type, err)
	}
	return nil
}

func newRequestID() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("request id: %w", err)
	}
	return "req_" + hex.EncodeToString(b[:]), nil
}
