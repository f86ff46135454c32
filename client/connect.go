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

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
)

// ErrNotRunning means no daemon is serving this data dir: the person
// starts one.
var ErrNotRunning = errors.New("the reprise daemon is not running")

// ReadInfo reads the running daemon's api.ClientFile from home. It refuses a file
// that others can read: the credentials in it would not be the user's
// alone.
func ReadInfo(home string) (api.ClientInfo, error) {
	var ci api.ClientInfo
	path := filepath.Join(home, api.ClientFile)
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
func Connect(home string, opts ...nats.Option) (*nats.Conn, api.ClientInfo, error) {
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
