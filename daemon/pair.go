package daemon

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
)

// PairSubject hands the local CLI what the extension needs to connect: the
// WebSocket URL and the extension user's credentials. The platform's
// account cannot reach it, and the extension's user cannot subscribe to it.
const PairSubject = events.LocalSubjectPrefix + ".extension.pair"

// Pairing is the extension's connection details.
type Pairing struct {
	URL      string `json:"url"`
	User     string `json:"user"`
	Password string `json:"password"`
}

func (d *Daemon) servePairing() error {
	_, err := d.nc.Subscribe(PairSubject, func(m *nats.Msg) {
		b, _ := json.Marshal(Pairing{URL: d.srv.WebSocketURL(), User: string(embedded.RoleExtension), Password: d.srv.Password(embedded.RoleExtension)})
		if err := m.Respond(b); err != nil {
			d.log.Warn("the pairing reply did not reach the CLI", "err", err)
		}
	})
	if err != nil {
		return fmt.Errorf("serve pairing: %w", err)
	}
	return nil
}

// RequestPairing asks the daemon serving home for the extension's details.
func RequestPairing(home string) (Pairing, error) {
	var p Pairing
	nc, _, err := Connect(home, nats.NoReconnect())
	if err != nil {
		return p, err
	}
	defer nc.Close()
	m, err := nc.Request(PairSubject, nil, 5*time.Second)
	if err != nil {
		return p, fmt.Errorf("ask the daemon for pairing: %w", err)
	}
	if err := json.Unmarshal(m.Data, &p); err != nil || p.URL == "" {
		return p, fmt.Errorf("pairing reply is malformed")
	}
	return p, nil
}
