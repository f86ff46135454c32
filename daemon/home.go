// Package daemon assembles the shim: the embedded NATS server, the stores of
// SPEC section 3, the data dir with its machine id and the local CLI's
// credentials, and the status service the CLI asks.
package daemon

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/reprise-dev/reprise/store"
)

// HomeEnv overrides the data dir.
const HomeEnv = "REPRISE_HOME"

// Home returns the data dir: $REPRISE_HOME, else the OS user data dir
// followed by "reprise".
func Home() (string, error) {
	if h := os.Getenv(HomeEnv); h != "" {
		return filepath.Abs(h)
	}
	base, err := userDataDir()
	if err != nil {
		return "", fmt.Errorf("find the data dir (set %s to choose one): %w", HomeEnv, err)
	}
	return filepath.Join(base, "reprise"), nil
}

// KeyringService is the keychain service the data dir home files its keys
// under: store.KeyringService for the person's own data dir, and one named
// after home for any other, so that two data dirs on one machine (a test's,
// a second profile's) never read or overwrite each other's keys.
func KeyringService(home string) string {
	if base, err := userDataDir(); err == nil && filepath.Clean(home) == filepath.Join(base, "reprise") {
		return store.KeyringService
	}
	return store.KeyringService + ":" + filepath.Clean(home)
}

// openKeyStore opens the key store of the data dir home: the one recorded
// at its first start (store.OpenKeyStore), which the daemon and the commands
// that read keys without it (a replay's cache) all follow. Call it before
// LoadOrCreateMachineID: a data dir that has its machine id was started
// before, so its keys are somewhere already.
func openKeyStore(home string, log *slog.Logger) (store.KeyStore, string, error) {
	_, err := os.Stat(filepath.Join(home, machineIDFile))
	return store.OpenKeyStore(filepath.Join(home, "keys"), KeyringService(home), err == nil, log)
}

// ensureHome creates the data dir readable by its owner only.
func ensureHome(home string) error {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	fi, err := os.Stat(home)
	if err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	if !fi.IsDir() {
		return errors.New("data dir " + home + " is not a directory")
	}
	return nil
}
