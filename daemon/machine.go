package daemon

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

const machineIDFile = "machine_id"

// LoadOrCreateMachineID returns the machine id kept in home, creating it on
// first start. The id names the shim in subjects, so it must be one token.
func LoadOrCreateMachineID(home string) (string, error) {
	path := filepath.Join(home, machineIDFile)
	b, err := os.ReadFile(path)
	if err == nil {
		id := strings.TrimSpace(string(b))
		if !strings.HasPrefix(id, "m_") || !events.ValidToken(id) {
			return "", fmt.Errorf("machine id in %s is malformed; remove the file to make a new one (platform pairings will need redoing)", path)
		}
		return id, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read machine id: %w", err)
	}
	var raw [12]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("generate machine id: %w", err)
	}
	id := "m_" + hex.EncodeToString(raw[:])
	if err := writeFileAtomic(path, []byte(id+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write machine id: %w", err)
	}
	return id, nil
}

// writeFileAtomic writes data to path through a temporary file and a rename,
// so a reader never sees half a file and a crash leaves the old one.
func writeFileAtomic(path string, data []byte, perm fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(perm); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
