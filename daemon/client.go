package daemon

import (
	"encoding/json"
	"path/filepath"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/client"
)

// ClientFile is where a running daemon tells the local CLI how to reach it.
const ClientFile = client.File

// ErrNotRunning means no daemon is serving this data dir.
var ErrNotRunning = client.ErrNotRunning

// ClientInfo is the content of ClientFile: the CLI's URL and credentials.
// The file is readable by its owner only.
type ClientInfo = client.Info

func writeClientInfo(home string, ci ClientInfo) error {
	b, err := json.MarshalIndent(ci, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(home, ClientFile), append(b, '\n'), 0o600)
}

// ReadClientInfo reads the running daemon's ClientFile from home
// (client.ReadInfo).
func ReadClientInfo(home string) (ClientInfo, error) { return client.ReadInfo(home) }

// Connect reaches the daemon serving home as the local CLI
// (client.Connect).
func Connect(home string, opts ...nats.Option) (*nats.Conn, ClientInfo, error) {
	return client.Connect(home, opts...)
}
