package store

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Which KeyStore OpenKeyStore opened.
const (
	KeyStoreKeychain = "keychain"
	KeyStoreFile     = "file"
)

// RecordFile is the file in a keys dir that records which key store the
// data dir keeps its keys in, KeyStoreKeychain or KeyStoreFile, from its
// first start on.
const RecordFile = "store"

// KeychainWait bounds how long OpenKeyStore waits for the keychain of a data
// dir whose keys are kept there: long enough for a loaded machine or a
// keychain still starting with the session, short enough that one waiting
// on a prompt nobody sees ends in an error rather than a hang.
const KeychainWait = 30 * time.Second

// keychainRetry is the pause between probes of such a keychain that failed
// fast (its Secret Service not started yet, a locked keyring): often enough
// to catch one starting, seldom enough not to flood a desktop with unlock
// prompts after one is dismissed.
const keychainRetry = time.Second

// ErrKeychainUnavailable is OpenKeyStore's error when the data dir's keys are
// in the OS keychain and it does not answer within KeychainWait.
var ErrKeychainUnavailable = errors.New("the OS keychain does not answer")

// OpenKeyStore opens the key store of the data dir whose keys dir is dir:
// the OS keychain, its items filed under service, or a FileKeyStore in dir.
// which is KeyStoreKeychain or KeyStoreFile.
//
// The choice is made once, at the data dir's first start, and recorded in
// dir (RecordFile): keys made under one store cannot be read from the other,
// so a slow or locked keychain must never switch a data dir to files, nor a
// keychain appearing later switch it away from them. At the first start the
// keychain is used when Probe passes, else files, after a loud warning on log
// (SPEC section 7: never silent). A data dir with no record but key files in
// dir keeps its files. used says the data dir was started before (so has
// keys somewhere): with no record and no key files, its keys are in the
// keychain.
//
// A data dir whose keys are in the keychain waits up to KeychainWait for it,
// then fails with ErrKeychainUnavailable.
func OpenKeyStore(dir, service string, used bool, log *slog.Logger) (ks KeyStore, which string, err error) {
	kr := KeyringKeyStore{Service: service, Shared: KeyringService}
	return opener{dir: dir, kr: kr, probe: kr.probe, wait: KeychainWait, retry: keychainRetry, log: log}.open(used)
}

// RecordedKeyStore returns the key store recorded in the keys dir dir,
// KeyStoreKeychain or KeyStoreFile, or "" when none is recorded yet.
func RecordedKeyStore(dir string) (string, error) {
	path := filepath.Join(dir, RecordFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read which key store this data dir uses: %w", err)
	}
	switch which := strings.TrimSpace(string(b)); which {
	case KeyStoreKeychain, KeyStoreFile:
		return which, nil
	default:
		return "", fmt.Errorf("%s holds %q; want %s or %s (which store this data dir's keys are in)", path, which, KeyStoreKeychain, KeyStoreFile)
	}
}

// opener is OpenKeyStore with what tests replace: the keychain's probe and
// the waits.
type opener struct {
	dir   string
	kr    KeyringKeyStore
	probe func(within time.Duration) error
	wait  time.Duration
	retry time.Duration
	log   *slog.Logger
}

func (o opener) open(used bool) (KeyStore, string, error) {
	which, err := RecordedKeyStore(o.dir)
	if err != nil {
		return nil, "", err
	}
	answered := false
	if which == "" {
		if which, answered, err = o.first(used); err != nil {
			return nil, "", err
		}
	} else if which == KeyStoreFile {
		o.log.Info("keys are kept in files readable only by you under "+o.dir+", as since this data dir's first start: an OS keychain is not used for it, even one that answers now", "dir", o.dir)
	}
	if which == KeyStoreFile {
		return FileKeyStore{Dir: o.dir}, KeyStoreFile, nil
	}
	if !answered {
		if err := o.await(); err != nil {
			return nil, "", err
		}
	}
	o.log.Info("keys are kept in the OS keychain", "service", o.kr.service())
	return o.kr, KeyStoreKeychain, nil
}

// first chooses the store of a data dir with no record, and records it;
// answered says the keychain passed a probe on the way.
func (o opener) first(used bool) (which string, answered bool, err error) {
	files, err := hasKeyFiles(o.dir)
	switch {
	case err != nil:
		return "", false, err
	case files:
		o.log.Info("keys are kept in files readable only by you under "+o.dir+", where this data dir has them: it keeps them there", "dir", o.dir)
		which = KeyStoreFile
	case used:
		// Its earlier starts made keys, and not in files.
		o.log.Info("this data dir was started before and has no key files: its keys are in the OS keychain")
		which = KeyStoreKeychain
	default:
		if err := o.probe(ProbeTimeout); err != nil {
			o.log.Warn("no OS keychain: keys are kept in files readable only by you under "+o.dir+", for good: this data dir keeps them there even once a keychain answers",
				"dir", o.dir, "reason", err.Error())
			which = KeyStoreFile
		} else {
			which, answered = KeyStoreKeychain, true
		}
	}
	recorded, err := record(o.dir, which)
	if err != nil {
		return "", false, err
	}
	return recorded, answered && recorded == which, nil
}

// await waits up to o.wait for the keychain to pass a probe.
func (o opener) await() error {
	start := time.Now()
	deadline := start.Add(o.wait)
	tries := 0
	for {
		tries++
		err := o.probe(time.Until(deadline))
		if err == nil {
			if tries > 1 || time.Since(start) > ProbeTimeout {
				o.log.Info("the OS keychain answered", "after", time.Since(start).Round(time.Millisecond), "tries", tries)
			}
			return nil
		}
		var noBus noBusError
		isNoBus := errors.As(err, &noBus)
		if isNoBus || time.Until(deadline) < o.retry {
			what := fmt.Sprintf("it did not answer within %v (%v). Is it locked, or waiting on a prompt? Unlock it, or start reprise in the session that has it", o.wait, err)
			if isNoBus {
				what = "there is no way to reach it here (" + err.Error() + "). Start reprise in the session that has it"
			}
			return keychainError{fmt.Sprintf("the keys of this data dir are in the OS keychain (service %q), and %s, and try again. "+
				"reprise does not switch to key files: they could not read what the keychain's keys sealed (%s records the choice)",
				o.kr.service(), what, filepath.Join(o.dir, RecordFile))}
		}
		time.Sleep(o.retry)
	}
}

// keychainError is ErrKeychainUnavailable with what to do about it.
type keychainError struct{ msg string }

func (e keychainError) Error() string { return e.msg }
func (e keychainError) Unwrap() error { return ErrKeychainUnavailable }

// hasKeyFiles reports whether dir holds key files of a FileKeyStore.
func hasKeyFiles(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("key dir: %w", err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".key") && !strings.HasPrefix(e.Name(), ".") {
			return true, nil
		}
	}
	return false, nil
}

// record records which in dir unless a record is there already, and returns
// the one that holds: of two processes opening a new data dir at once (a
// daemon and a replay), the first to record wins and the other follows it.
// The record is written whole (a temporary file linked into place), mode
// 0600.
func record(dir, which string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("key dir: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return "", fmt.Errorf("record the key store: %w", err)
	}
	defer os.Remove(tmp.Name())
	_ = tmp.Chmod(0o600)
	_, err = tmp.WriteString(which + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("record the key store: %w", err)
	}
	path := filepath.Join(dir, RecordFile)
	err = os.Link(tmp.Name(), path)
	if errors.Is(err, fs.ErrExist) {
		return RecordedKeyStore(dir)
	}
	if err != nil { // a file system without hard links
		if _, serr := os.Lstat(path); serr == nil {
			return RecordedKeyStore(dir)
		}
		if err = os.Rename(tmp.Name(), path); err != nil {
			return "", fmt.Errorf("record the key store: %w", err)
		}
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return which, nil
}
