package store

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/zalando/go-keyring"
)

// KeyringService is the keychain service of the person's own data dir and of
// the secrets skills name; another data dir files its keys under its own.
const KeyringService = "reprise"

// ProbeTimeout bounds Probe: a keychain that prompts, is locked, or whose
// bus does not answer counts as no keychain rather than stalling the daemon.
const ProbeTimeout = 3 * time.Second

// KeyringKeyStore keeps each key as its own item in the OS keychain through
// go-keyring: the macOS Keychain, the Windows Credential Manager, or a Secret
// Service (gnome-keyring, KWallet) on Linux. Keychain values are strings, so
// keys are stored base64-encoded. It is safe for concurrent use.
//
// Its calls have no timeout of their own: use Probe (or OpenKeyStore) before
// relying on it.
type KeyringKeyStore struct {
	// Service files the items; empty means KeyringService. Tests use their
	// own so they never touch a person's real keys.
	Service string
	// Shared is the service keys were filed under before each data dir had
	// its own: a key not found under Service is read from it, and kept
	// under Service from then on, so no key is lost to the move.
	Shared string
}

var _ KeyStore = KeyringKeyStore{}

func (s KeyringKeyStore) service() string {
	if s.Service == "" {
		return KeyringService
	}
	return s.Service
}

// Get implements KeyStore.
func (s KeyringKeyStore) Get(name string) ([]byte, error) {
	if err := checkKeyName(name); err != nil {
		return nil, err
	}
	v, err := keyring.Get(s.service(), name)
	if errors.Is(err, keyring.ErrNotFound) && s.Shared != "" && s.Shared != s.service() {
		if v, err = keyring.Get(s.Shared, name); err == nil {
			if err := keyring.Set(s.service(), name, v); err != nil {
				return nil, fmt.Errorf("move key %s to this data dir's keychain items: %w", name, err)
			}
		}
	}
	if errors.Is(err, keyring.ErrNotFound) {
		return nil, fmt.Errorf("key %s: %w", name, ErrKeyNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read key %s from keychain: %w", name, err)
	}
	key, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return nil, fmt.Errorf("read key %s from keychain: not base64: %w", name, err)
	}
	return key, nil
}

// Put implements KeyStore.
func (s KeyringKeyStore) Put(name string, key []byte) error {
	if err := checkKeyName(name); err != nil {
		return err
	}
	if err := keyring.Set(s.service(), name, base64.StdEncoding.EncodeToString(key)); err != nil {
		return fmt.Errorf("write key %s to keychain: %w", name, err)
	}
	return nil
}

// Delete implements KeyStore.
func (s KeyringKeyStore) Delete(name string) error {
	if err := checkKeyName(name); err != nil {
		return err
	}
	err := keyring.Delete(s.service(), name)
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("delete key %s from keychain: %w", name, err)
	}
	return nil
}

// Probe reports whether the keychain works here, by putting, reading back and
// deleting a throwaway item within ProbeTimeout; reason says why not. A probe
// that times out leaves its goroutine blocked on the keychain: go-keyring
// offers no way to cancel a call.
func (s KeyringKeyStore) Probe() (ok bool, reason string) {
	if err := s.probe(ProbeTimeout); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// noBusError is a probe's error where there is no session bus at all:
// unlike a keychain that is slow, locked or still starting, waiting does not
// bring one (the process's environment names none).
type noBusError struct{ reason string }

func (e noBusError) Error() string { return e.reason }

// probe is Probe's round trip, bounded by within.
func (s KeyringKeyStore) probe(within time.Duration) error {
	if reason := sessionBusMissing(); reason != "" {
		return noBusError{reason}
	}
	done := make(chan error, 1)
	go func() { done <- s.roundTrip() }()
	select {
	case err := <-done:
		return err
	case <-time.After(within):
		return fmt.Errorf("keychain did not answer within %v (locked, or waiting on a prompt?)", within.Round(time.Millisecond))
	}
}

func (s KeyringKeyStore) roundTrip() error {
	var r [8]byte
	_, _ = rand.Read(r[:])
	name := "probe-" + hex.EncodeToString(r[:])
	want := r[:]
	if err := s.Put(name, want); err != nil {
		return err
	}
	got, err := s.Get(name)
	if err != nil {
		_ = s.Delete(name)
		return err
	}
	if !bytes.Equal(got, want) {
		_ = s.Delete(name)
		return errors.New("keychain returned a different value than was stored")
	}
	if err := s.Delete(name); err != nil {
		return err
	}
	if _, err := s.Get(name); !errors.Is(err, ErrKeyNotFound) {
		return fmt.Errorf("keychain kept a deleted item (get after delete: %v)", err)
	}
	return nil
}
