// Package api is what the CLI and the daemon's local services say to each
// other: the request and reply bodies of the local subjects (events.Local*,
// which stay in events beside every other subject) and the file through
// which a running daemon tells the CLI where it is.
//
// It lives apart from the services so that the CLI's client links these
// types and nothing of what serves them: not the desktop broker, the JS
// engine, the consent dialogs or the store. It imports only the standard
// library, events and ops; each service and the client import it, and
// neither writes a body of its own.
package api

// ClientFile is where a running daemon tells the local CLI how to reach
// it, in its data dir.
const ClientFile = "client.json"

// ClientInfo is the content of ClientFile: the CLI's URL and credentials.
// The daemon writes it readable by its owner only.
type ClientInfo struct {
	URL          string `json:"url"`
	User         string `json:"user"`
	Password     string `json:"password"`
	MachineID    string `json:"machine_id"`
	WebSocketURL string `json:"websocket_url"`
	PID          int    `json:"pid"`
}
