package embedded

import (
	"crypto/subtle"
	"net"
	"regexp"
	"strings"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
)

// CLINamePrefix starts the connection name of every CLI connection; the
// rest of the name is the connection's own inbox prefix. The client side
// of this contract is events' (events.CLIOptions).
const CLINamePrefix = events.CLINamePrefix

// cliInbox is the shape of a CLI connection's inbox prefix: 128 random
// bits, which no other connection can guess.
var cliInbox = regexp.MustCompile(`^` + regexp.QuoteMeta(events.CLIInboxPrefix) + `[0-9a-f]{32}$`)

// CLIOptions are the options a local CLI connects with (events.CLIOptions):
// the CLI user, and an inbox prefix of its own, which the server lets only
// this connection subscribe to.
func CLIOptions(password string) []nats.Option { return events.CLIOptions(password) }

// NewCLIInbox returns a fresh inbox prefix for one CLI connection, which
// it claims by naming itself CLINamePrefix + the prefix.
func NewCLIInbox() string { return events.NewCLIInbox() }

// authenticator admits each client as its role, over the one way in that
// role may use, with its permissions; the CLI's permissions are made per
// connection. nats-server's users cannot do the last: their permissions
// are the same for every connection of a user.
type authenticator struct {
	machineID string
	passwords map[Role]string
	gate      *wsGate
	ns        *server.Server // set once the server exists: its SHIM account
}

var _ server.Authentication = (*authenticator)(nil)

// Check implements server.Authentication.
func (a *authenticator) Check(c server.ClientAuthentication) bool {
	opts := c.GetOpts()
	role := Role(opts.Username)
	want, ok := a.passwords[role]
	if !ok || role == RolePlatform || subtle.ConstantTimeCompare([]byte(opts.Password), []byte(want)) != 1 {
		return false
	}
	if a.wayIn(c.RemoteAddress()) != connectionType(role) {
		return false
	}
	perms := permissions(role, a.machineID)
	if role == RoleCLI {
		inbox, ok := strings.CutPrefix(opts.Name, CLINamePrefix)
		if !ok || !cliInbox.MatchString(inbox) {
			return false
		}
		perms.Subscribe.Allow = append(perms.Subscribe.Allow, inbox+".>")
	}
	shim, err := a.ns.LookupAccount(AccountShim)
	if err != nil {
		return false
	}
	c.RegisterUser(&server.User{Username: string(role), Account: shim, Permissions: perms})
	return true
}

// wayIn tells how a client reached the server from its remote address: an
// in-process pipe, the WebSocket gate's own upstream connection (after its
// Origin check), or a plain TCP connection.
func (a *authenticator) wayIn(addr net.Addr) string {
	switch {
	case addr == nil:
		return "" // gone, or unknown: no way in
	case addr.Network() == "pipe":
		return jwt.ConnectionTypeInProcess
	case a.gate != nil && a.gate.isUpstream(addr.String()):
		return jwt.ConnectionTypeWebsocket
	}
	return jwt.ConnectionTypeStandard
}
