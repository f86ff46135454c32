package client

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// ErrDaemonGone is the cause of a context Watch ended because the daemon
// stopped answering: killed, crashed, or its machine asleep.
var ErrDaemonGone = errors.New("the daemon went away")

// DaemonGrace is how long a long-running command waits for a daemon that
// dropped its connection to come back before giving up.
const DaemonGrace = 5 * time.Second

// Watch returns ctx ended with ErrDaemonGone (its context.Cause) when the
// connection stays down for grace, or is closed: a replay must not hang for
// minutes on a dead daemon, retrying JetStream calls nobody will answer.
// It takes over the connection's disconnect, reconnect and closed handlers.
func (c *Client) Watch(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	nc := c.nc
	ctx, cancel := context.WithCancelCause(ctx)
	var mu sync.Mutex
	var timer *time.Timer
	nc.SetDisconnectErrHandler(func(*nats.Conn, error) {
		mu.Lock()
		defer mu.Unlock()
		if timer == nil {
			timer = time.AfterFunc(grace, func() {
				if !nc.IsConnected() {
					cancel(ErrDaemonGone)
				}
			})
		}
	})
	nc.SetReconnectHandler(func(*nats.Conn) {
		mu.Lock()
		defer mu.Unlock()
		if timer != nil {
			timer.Stop()
			timer = nil
		}
	})
	nc.SetClosedHandler(func(*nats.Conn) { cancel(ErrDaemonGone) })
	return ctx, func() { cancel(context.Canceled) }
}
