// Package client is the CLI's one way to talk to the daemon: it connects
// as the local CLI with the credentials the daemon leaves in its data dir
// (Dial), and offers each local service and wire op the CLI uses as a
// typed method. A refusal comes back as the service's *ops.Error, which
// errors.As finds however the error is wrapped.
//
// Each method bounds its wait for the daemon (a caller's shorter deadline
// still wins), so a daemon that stops answering fails the command rather
// than hanging it.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// How long each call may wait for the daemon.
const (
	listTimeout    = 10 * time.Second
	fetchTimeout   = 30 * time.Second
	frameTimeout   = 15 * time.Second
	reviewTimeout  = time.Minute
	stopTimeout    = time.Minute
	buildTimeout   = 3 * time.Minute
	draftTimeout   = time.Minute
	skillTimeout   = 30 * time.Second
	keyTimeout     = 10 * time.Second
	pairingTimeout = 5 * time.Second
)

// Client is a connection to the daemon serving one data dir, as the local
// CLI. It is safe for concurrent use.
type Client struct {
	nc  *nats.Conn
	ops *ops.Client
}

// Dial connects to the daemon serving the data dir home (Connect); opts
// come after the CLI's own. ErrNotRunning says no daemon serves it.
func Dial(home string, opts ...nats.Option) (*Client, error) {
	nc, ci, err := Connect(home, opts...)
	if err != nil {
		return nil, err
	}
	return New(nc, ci.MachineID), nil
}

// New is a client over nc, a connection with the CLI's permissions, to the
// shim of machine machineID. Close closes nc.
func New(nc *nats.Conn, machineID string) *Client {
	return &Client{nc: nc, ops: ops.NewClient(nc, events.OpsSubject(machineID))}
}

// Close closes the connection; it is safe to call twice.
func (c *Client) Close() { c.nc.Close() }

// Conn is the connection, for what runs in the CLI on the daemon's
// streams (a replay run, the audit log) and for watching the daemon go.
func (c *Client) Conn() *nats.Conn { return c.nc }

// local asks the local service on subject, req sent as JSON and the reply
// decoded into reply, within timeout. A refusal is returned as the
// service's *ops.Error, anything else says which service did not answer.
func (c *Client) local(ctx context.Context, subject string, req, reply any, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := ops.AskJSON(ctx, c.nc, subject, req, reply)
	var refused *ops.Error
	if err != nil && !errors.As(err, &refused) {
		return fmt.Errorf("ask the daemon (%s): %w", subject, err)
	}
	return err
}

// call sends the wire op typ with payload and decodes its reply into out,
// within timeout (none when 0). An ERROR reply is the *ops.Error.
func (c *Client) call(ctx context.Context, typ string, payload, out any, timeout time.Duration) error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return c.ops.Call(ctx, typ, payload, out)
}

// Pairing asks the daemon for the extension's connection details.
func (c *Client) Pairing(ctx context.Context) (api.Pairing, error) {
	var p api.Pairing
	ctx, cancel := context.WithTimeout(ctx, pairingTimeout)
	defer cancel()
	b, err := ops.Ask(ctx, c.nc, events.LocalPair, nil)
	if err != nil {
		return p, fmt.Errorf("ask the daemon for pairing: %w", err)
	}
	if err := json.Unmarshal(b, &p); err != nil || p.URL == "" {
		return p, fmt.Errorf("pairing reply is malformed")
	}
	return p, nil
}
