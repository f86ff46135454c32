package daemon

import (
	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/embedded"
)

// pairing is what events.LocalPair answers (status.go serves it).
func (d *Daemon) pairing() api.Pairing {
	return api.Pairing{URL: d.srv.WebSocketURL(), User: string(embedded.RoleExtension), Password: d.srv.Password(embedded.RoleExtension)}
}
