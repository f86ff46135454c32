package daemon

import (
	"encoding/json"
	"path/filepath"

	"github.com/reprise-dev/reprise/api"
)

// writeClientInfo tells the local CLI how to reach this daemon, in
// api.ClientFile; the CLI reads it with client.ReadInfo.
func writeClientInfo(home string, ci api.ClientInfo) error {
	b, err := json.MarshalIndent(ci, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(home, api.ClientFile), append(b, '\n'), 0o600)
}
