package store

import (
	"errors"
	"fmt"

	"github.com/zalando/go-keyring"
)

// ErrNoSecret is a secret not kept in the keychain.
var ErrNoSecret = errors.New("not in the keychain")

// secretItem is the keychain item a named secret is kept in, beside the
// keys of the person's own data dir: a skill names a secret (a client
// certificate's passphrase_key) whichever data dir runs it.
func secretItem(name string) string { return "secret:" + name }

// Secret reads the secret name from the OS keychain; one never kept there
// is ErrNoSecret.
func Secret(name string) (string, error) {
	v, err := keyring.Get(KeyringService, secretItem(name))
	if errors.Is(err, keyring.ErrNotFound) {
		return "", fmt.Errorf("secret %s: %w", name, ErrNoSecret)
	}
	if err != nil {
		return "", fmt.Errorf("read secret %s from the keychain: %w", name, err)
	}
	return v, nil
}

// SetSecret keeps value as the secret name in the OS keychain, in place of
// any it held.
func SetSecret(name, value string) error {
	if err := keyring.Set(KeyringService, secretItem(name), value); err != nil {
		return fmt.Errorf("keep secret %s in the keychain: %w", name, err)
	}
	return nil
}

// DeleteSecret removes the secret name from the OS keychain; one never
// kept there is ErrNoSecret.
func DeleteSecret(name string) error {
	err := keyring.Delete(KeyringService, secretItem(name))
	if errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("secret %s: %w", name, ErrNoSecret)
	}
	if err != nil {
		return fmt.Errorf("delete secret %s from the keychain: %w", name, err)
	}
	return nil
}
