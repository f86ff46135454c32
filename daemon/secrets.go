package daemon

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/store"
)

// Key store names of the secrets that outlive a run: the extension and the
// platform are given theirs once and keep them. The daemon's and the CLI's
// are new every run (the CLI reads its own from client.json).
const (
	extensionSecretKey = "extension-secret"
	platformSecretKey  = "platform-secret"
)

// PlatformFile is where the platform's leafnode credentials are written when
// the platform listener is on, for the person to hand to the platform.
const PlatformFile = "platform.json"

func stableSecrets(keys store.KeyStore) (map[embedded.Role]string, error) {
	out := map[embedded.Role]string{}
	for role, name := range map[embedded.Role]string{embedded.RoleExtension: extensionSecretKey, embedded.RolePlatform: platformSecretKey} {
		b, err := store.LoadOrCreate(keys, name, func() ([]byte, error) {
			s, err := embedded.NewSecret()
			return []byte(s), err
		})
		if err != nil {
			return nil, fmt.Errorf("%s secret: %w", role, err)
		}
		out[role] = string(b)
	}
	return out, nil
}

// writePlatformFile records how the platform's NATS links to this shim.
func (d *Daemon) writePlatformFile() error {
	addr := d.srv.LeafnodeAddr()
	if addr == "" {
		return nil
	}
	b, err := json.MarshalIndent(map[string]string{
		"leafnode_url": "nats://" + addr,
		"user":         string(embedded.RolePlatform),
		"password":     d.srv.Password(embedded.RolePlatform),
		"account_note": "the link is bound to the shim's PLATFORM account: request/reply on shim." + d.srv.MachineID() + ".ops only",
	}, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(d.home, PlatformFile), append(b, '\n'), 0o600)
}

// portFile remembers the extension's WebSocket port between starts.
const portFile = "websocket_port"

func savedPort(home string) int {
	b, err := os.ReadFile(filepath.Join(home, portFile))
	if err != nil {
		return 0
	}
	p, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || p < 1024 || p > 65535 {
		return 0
	}
	return p
}

func savePort(home, wsURL string) error {
	u, err := url.Parse(wsURL)
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(home, portFile), []byte(u.Port()+"\n"), 0o600)
}
