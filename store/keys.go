// Package store holds what keeps recordings safe at rest: the key store, and
// (as they land) sealing, retention and crypto-erase (SPEC section 7).
package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// ErrKeyNotFound is returned by Get for a key that was never put or was deleted.
var ErrKeyNotFound = errors.New("key not found")

// KeyStore keeps named secret keys, each a distinct item so distinct trust
// boundaries never share one. Implementations must be safe for concurrent use.
type KeyStore interface {
	// Get returns the key called name, or ErrKeyNotFound.
	Get(name string) ([]byte, error)
	// Put stores key under name, replacing any earlier one.
	Put(name string, key []byte) error
	// Delete removes the key; deleting a missing key is not an error.
	Delete(name string) error
}

var keyName = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,127}$`)

// FileKeyStore keeps each key in its own file, readable by the owner only.
// It is the fallback where no OS keychain exists.
type FileKeyStore struct {
	// Dir holds the key files; it is created with mode 0700.
	Dir string
}

var _ KeyStore = FileKeyStore{}

// checkKeyName holds every KeyStore to the same names, so a key can move
// between the keychain and the file fallback.
func checkKeyName(name string) error {
	if !keyName.MatchString(name) {
		return fmt.Errorf("key name %q: want lower-case letters, digits, '.', '_' or '-'", name)
	}
	return nil
}

func (s FileKeyStore) path(name string) (string, error) {
	if err := checkKeyName(name); err != nil {
		return "", err
	}
	return filepath.Join(s.Dir, name+".key"), nil
}

// Get implements KeyStore.
func (s FileKeyStore) Get(name string) ([]byte, error) {
	p, err := s.path(name)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("key %s: %w", name, ErrKeyNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read key %s: %w", name, err)
	}
	return b, nil
}

// Put implements KeyStore.
func (s FileKeyStore) Put(name string, key []byte) error {
	p, err := s.path(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("key dir: %w", err)
	}
	tmp, err := os.CreateTemp(s.Dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("write key %s: %w", name, err)
	}
	defer os.Remove(tmp.Name())
	_ = tmp.Chmod(0o600)
	if _, err := tmp.Write(key); err != nil {
		tmp.Close()
		return fmt.Errorf("write key %s: %w", name, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write key %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write key %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("write key %s: %w", name, err)
	}
	return nil
}

// Delete implements KeyStore.
func (s FileKeyStore) Delete(name string) error {
	p, err := s.path(name)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete key %s: %w", name, err)
	}
	return nil
}

// LoadOrCreate returns the key called name, generating and storing it with
// gen on first use.
func LoadOrCreate(ks KeyStore, name string, gen func() ([]byte, error)) ([]byte, error) {
	key, err := ks.Get(name)
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, ErrKeyNotFound) {
		return nil, err
	}
	if key, err = gen(); err != nil {
		return nil, fmt.Errorf("generate key %s: %w", name, err)
	}
	if err := ks.Put(name, key); err != nil {
		return nil, err
	}
	return key, nil
}
