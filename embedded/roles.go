package embedded

import (
	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"

	"github.com/reprise-dev/reprise/events"
)

// Role is one kind of client the shim lets in. Each role is a NATS user with
// the least subject permissions it needs and the one connection type it may
// use (SPEC section 2, "Who connects").
type Role string

// The roles.
const (
	// RoleDaemon is the daemon's own consumers, in-process only.
	RoleDaemon Role = "daemon"
	// RoleCLI is the local user's command-line tool, over TCP on 127.0.0.1.
	RoleCLI Role = events.CLIUser
	// RoleExtension is the browser extension, over the local WebSocket.
	RoleExtension Role = "extension"
	// RolePlatform is the remote platform, over a leafnode link only.
	RolePlatform Role = "platform"
)

// Accounts. The platform lives in its own account, which sees nothing of the
// shim's but the ops service imported into it.
const (
	AccountShim     = "SHIM"
	AccountPlatform = "PLATFORM"
)

// cliJS are the JetStream API calls the CLI may make: read any stream's
// and consumer's info, and read REPLAY (the replay engine runs in the CLI)
// and AUDIT (audit tail, verify) through consumers of its own. Nothing that
// touches CAPTURE's consumers, the daemon's pipeline: no create there, no
// delete, pause, reset or ack, and no change to a stream.
var cliJS = append([]string{
	events.JSAccountInfo,
	events.JSStreamNames,
	events.JSStreamList,
	events.JSStreamInfo(events.Wildcard),
	events.JSStreamMsgGet(events.Wildcard),
	events.JSDirectGet(events.Rest),
	events.JSConsumerNames(events.Wildcard),
	events.JSConsumerList(events.Wildcard),
	events.JSConsumerInfo(events.Wildcard, events.Wildcard),
}, consumersOf(events.StreamReplay, events.StreamAudit)...)

// consumersOf are the calls that create, read through and delete a
// consumer of each of streams, of any name.
func consumersOf(streams ...string) []string {
	var out []string
	for _, s := range streams {
		out = append(out, events.JSConsumerCreate(s), events.JSConsumerNext(s, events.Wildcard), events.JSConsumerDelete(s, events.Wildcard))
	}
	return out
}

// cliServices are the services framework's discovery requests the CLI may
// send (`nats micro ls|info|stats|ping`), to every local service or one:
// $SRV.<verb>[.<name>[.<id>]]. Their replies come to its own inbox; it may
// not subscribe there, so it cannot pose as a service.
var cliServices = []string{
	events.ServiceDiscovery("PING"), events.ServiceDiscoveryNamed("PING"),
	events.ServiceDiscovery("INFO"), events.ServiceDiscoveryNamed("INFO"),
	events.ServiceDiscovery("STATS"), events.ServiceDiscoveryNamed("STATS"),
}

// permissions returns the subject permissions of role on the shim whose
// machine id is machineID.
func permissions(role Role, machineID string) *server.Permissions {
	ops := events.OpsSubject(machineID)
	switch role {
	case RoleDaemon:
		return &server.Permissions{
			// Only the extension speaks on its ingest subjects: the daemon
			// reads them and must not be able to forge them.
			Publish:   &server.SubjectPermission{Allow: []string{">"}, Deny: []string{events.ExtensionAll}},
			Subscribe: &server.SubjectPermission{Allow: []string{">"}},
		}
	case RoleCLI:
		return &server.Permissions{
			Publish: &server.SubjectPermission{Allow: append(append([]string{
				ops, events.LocalAll, events.ReplayAll,
			}, cliJS...), cliServices...)},
			// Its inbox is added per connection (see authenticator).
			Subscribe: &server.SubjectPermission{Allow: []string{events.LiveAll, events.AskAll}},
		}
	case RoleExtension:
		return &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: []string{events.ExtensionAll}},
			Subscribe: &server.SubjectPermission{Allow: []string{events.ExtensionInboxAll}},
		}
	}
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Deny: []string{">"}},
		Subscribe: &server.SubjectPermission{Deny: []string{">"}},
	}
}

// connectionType is the only way each client role may connect.
func connectionType(role Role) string {
	switch role {
	case RoleDaemon:
		return jwt.ConnectionTypeInProcess
	case RoleExtension:
		return jwt.ConnectionTypeWebsocket
	default:
		return jwt.ConnectionTypeStandard
	}
}
