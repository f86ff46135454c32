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

// statusTimeout bounds the status question: a daemon that does not
// answer in it is taken for not running.
const statusTimeout = 3 * time.Second

// Status asks the daemon how it is. A server that answers while the shim
// does not is ErrNotRunning.
func (c *Client) Status(ctx context.Context) (api.Status, error) {
	var st api.Status
	ctx, cancel := context.WithTimeout(ctx, statusTimeout)
	defer cancel()
	b, err := ops.Ask(ctx, c.nc, events.LocalStatus, nil)
	if errors.Is(err, nats.ErrNoResponders) || errors.Is(err, context.DeadlineExceeded) {
		return st, fmt.Errorf("%w (its server answers but the shim does not)", ErrNotRunning)
	}
	if err != nil {
		return st, fmt.Errorf("ask the daemon: %w", err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("daemon status is malformed: %w", err)
	}
	return st, nil
}

// QueryStatus asks the daemon serving home for its status, on a
// connection of its own that does not wait for a daemon to come back.
func QueryStatus(home string) (api.Status, error) {
	c, err := Dial(home, nats.NoReconnect())
	if err != nil {
		return api.Status{}, err
	}
	defer c.Close()
	return c.Status(context.Background())
}

// WaitBrowserJoined reports whether the browser extension joined recording
// id of the daemon serving home within wait (it says hello every two
// seconds); true at once when no extension is connected: another source
// serves the browser channel then.
func WaitBrowserJoined(ctx context.Context, home, id string, wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for {
		st, err := QueryStatus(home)
		if err == nil && (!st.BrowserConnected || st.Recording != nil && st.Recording.ID == id && st.Recording.BrowserJoined) {
			return true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}
