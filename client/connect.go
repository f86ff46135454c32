package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
)

// File is where a running daemon tells the local CLI how to reach it, in
// its data dir.
const File = "client.json"

// ErrNotRunning means no daemon is serving this data dir.
var ErrNotRunning = errors.New("the reprise daemon is not running (start it with `reprise daemon`)")

// Info is the content of File: the CLI's URL and credentials. The file is
// readable by its owner only.
type Info struct {
	URL          string `json:"url"`
	User         string `json:"user"`
	Password     string `json:"password"`
	MachineID    string `json:"machine_id"`
	WebSocketURL string `json:"websocket_url"`
	PID          int    `json:"pid"`
}

// ReadInfo reads the running daemon's File from home. It refuses a file
// that others can read: the credentials in it would not be the user's
// alone.
func ReadInfo(home string) (Info, error) {
	var ci Info
	path := filepath.Join(home, File)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ci, ErrNotRunning
	}
	if err != nil {
		return ci, fmt.Errorf("daemon credentials: %w", err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return ci, fmt.Errorf("daemon credentials %s are readable by other users (mode %v); run `chmod 600 %s` or restart the daemon", path, fi.Mode().Perm(), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return ci, fmt.Errorf("daemon credentials: %w", err)
	}
	if err := json.Unmarshal(b, &ci); err != nil || ci.URL == "" || ci.User == "" {
		return ci, fmt.Errorf("daemon credentials %s are malformed; restart the daemon to rewrite them", path)
	}
	return ci, nil
}

// Connect reaches the daemon serving home as the local CLI (the user and
// inbox of events.CLIOptions); opts come after those.
func Connect(home string, opts ...nats.Option) (*nats.Conn, Info, error) {
	ci, err := ReadInfo(home)
	if err != nil {
		return nil, ci, err
	}
	if ci.User != events.CLIUser {
		return nil, ci, fmt.Errorf("daemon credentials name user %q, not the CLI's; restart the daemon to rewrite them", ci.User)
	}
	opts = append(append(events.CLIOptions(ci.Password), nats.Timeout(2*time.Second)), opts...)
	nc, err := nats.Connect(ci.URL, opts...)
	if err != nil {
		return nil, ci, fmt.Errorf("%w (%s answered: %v)", ErrNotRunning, ci.URL, err)
	}
	return nc, ci, nil
}
