package main

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// errDaemonGone is the cause of a command's context ending because the
// daemon stopped answering: killed, crashed, or its machine asleep.
var errDaemonGone = errors.New("the daemon went away")

// daemonGrace is how long a long-running command waits for a daemon that
// dropped its connection to come back before giving up.
const daemonGrace = 5 * time.Second

// watchDaemon returns ctx ended with errDaemonGone when nc stays
// disconnected for grace: a replay must not hang for minutes on a dead
// daemon, retrying JetStream calls nobody will answer.
func watchDaemon(ctx context.Context, nc *nats.Conn, grace time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	var mu sync.Mutex
	var timer *time.Timer
	nc.SetDisconnectErrHandler(func(*nats.Conn, error) {
		mu.Lock()
		defer mu.Unlock()
		if timer == nil {
			timer = time.AfterFunc(grace, func() {
				if !nc.IsConnected() {
					cancel(errDaemonGone)
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
	nc.SetClosedHandler(func(*nats.Conn) { cancel(errDaemonGone) })
	return ctx, func() { cancel(context.Canceled) }
}
