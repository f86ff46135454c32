package daemon

import (
	"context"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/embedded"
)

// Pairing is the extension's connection details.
type Pairing = client.Pairing

// pairing is what events.LocalPair answers (status.go serves it).
func (d *Daemon) pairing() Pairing {
	return Pairing{URL: d.srv.WebSocketURL(), User: string(embedded.RoleExtension), Password: d.srv.Password(embedded.RoleExtension)}
}

// RequestPairing asks the daemon serving home for the extension's details.
func RequestPairing(home string) (Pairing, error) {
	c, err := client.Dial(home, nats.NoReconnect())
	if err != nil {
		return Pairing{}, err
	}
	defer c.Close()
	return c.Pairing(context.Background())
}
