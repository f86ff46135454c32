package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// Pairing is the extension's connection details.
type Pairing struct {
	URL      string `json:"url"`
	User     string `json:"user"`
	Password string `json:"password"`
}

// pairing is what events.LocalPair answers (status.go serves it).
func (d *Daemon) pairing() Pairing {
	return Pairing{URL: d.srv.WebSocketURL(), User: string(embedded.RoleExtension), Password: d.srv.Password(embedded.RoleExtension)}
}

// RequestPairing asks the daemon serving home for the extension's details.
func RequestPairing(home string) (Pairing, error) {
	var p Pairing
	nc, _, err := Connect(home, nats.NoReconnect())
	if err != nil {
		return p, err
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b, err := ops.Ask(ctx, nc, events.LocalPair, nil)
	if err != nil {
		return p, fmt.Errorf("ask the daemon for pairing: %w", err)
	}
	if err := json.Unmarshal(b, &p); err != nil || p.URL == "" {
		return p, fmt.Errorf("pairing reply is malformed")
	}
	return p, nil
}
