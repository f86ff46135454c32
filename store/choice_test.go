package store

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeKeychain stands for the keychain's probe: answer says how the n-th
// probe (from 1), given within to answer, goes.
type fakeKeychain struct {
	answer  func(n int, within time.Duration) error
	withins []time.Duration
}

func (f *fakeKeychain) probe(within time.Duration) error {
	f.withins = append(f.withins, within)
	return f.answer(len(f.withins), within)
}

var errSlow = errors.New("keychain did not answer within the time given (fake)")

// Keychains as the probes see them.
var (
	answers = func(int, time.Duration) error { return nil }
	silent  = func(int, time.Duration) error { return errSlow }
	// slow answers in 5 s: after ProbeTimeout, within KeychainWait.
	slow = func(_ int, within time.Duration) error {
		if within < 5*time.Second {
			return errSlow
		}
		return nil
	}
	// starting fails fast twice (its Secret Service not up yet), then answers.
	starting = func(n int, _ time.Duration) error {
		if n <= 2 {
			return errors.New("The name org.freedesktop.secrets was not provided by any .service files (fake)")
		}
		return nil
	}
	noBus = func(int, time.Duration) error { return noBusError{"no D-Bus session bus (fake)"} }
)

// TestOpenKeyStoreSticky: the key store is chosen at a data dir's first
// start and kept from then on, whatever the keychain does later.
func TestOpenKeyStoreSticky(t *testing.T) {
	for _, tc := range []struct {
		name     string
		record   string // written before opening; "" for none
		keyFiles bool   // a key file in the keys dir before opening
		used     bool
		keychain func(int, time.Duration) error
		wait     time.Duration // 0 for KeychainWait

		want    string // KeyStoreKeychain, KeyStoreFile, or "" for an error
		probes  int
		warn    bool
		errText []string
	}{
		{name: "new, keychain answers", keychain: answers, want: KeyStoreKeychain, probes: 1},
		{name: "new, no keychain", keychain: silent, want: KeyStoreFile, probes: 1, warn: true},
		{name: "new, no bus", keychain: noBus, want: KeyStoreFile, probes: 1, warn: true},
		{name: "key files, no record", keyFiles: true, used: true, keychain: answers, want: KeyStoreFile},
		{name: "used, no key files, no record", used: true, keychain: slow, want: KeyStoreKeychain, probes: 1},
		{name: "recorded file, keychain answers", record: KeyStoreFile, used: true, keychain: answers, want: KeyStoreFile},
		{name: "recorded keychain, slow", record: KeyStoreKeychain, used: true, keychain: slow, want: KeyStoreKeychain, probes: 1},
		{name: "recorded keychain, starting", record: KeyStoreKeychain, used: true, keychain: starting, want: KeyStoreKeychain, probes: 3},
		{name: "recorded keychain, silent", record: KeyStoreKeychain, used: true, keychain: silent, wait: 30 * time.Millisecond,
			errText: []string{"keys of this data dir are in the OS keychain", "did not answer within 30ms", "locked, or waiting on a prompt", "does not switch to key files", errSlow.Error()}},
		{name: "recorded keychain, no bus", record: KeyStoreKeychain, used: true, keychain: noBus, probes: 1,
			errText: []string{"keys of this data dir are in the OS keychain", "no way to reach it here", "no D-Bus session bus"}},
		{name: "bad record", record: "maybe", used: true, keychain: answers, errText: []string{`holds "maybe"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "keys")
			if tc.record != "" {
				if err := os.MkdirAll(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, RecordFile), []byte(tc.record+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tc.keyFiles {
				if err := (FileKeyStore{Dir: dir}).Put(AuditChainKey, []byte("k1")); err != nil {
					t.Fatal(err)
				}
			}
			f := &fakeKeychain{answer: tc.keychain}
			var logs bytes.Buffer
			o := opener{dir: dir, kr: KeyringKeyStore{Service: testService + "-fake"}, probe: f.probe,
				wait: KeychainWait, retry: time.Millisecond, log: slog.New(slog.NewTextHandler(&logs, nil))}
			if tc.wait != 0 {
				o.wait = tc.wait
			}
			ks, which, err := o.open(tc.used)

			if tc.want == "" {
				if err == nil {
					t.Fatalf("open() = %#v, %q; want an error", ks, which)
				}
				for _, s := range tc.errText {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("open() = %v; want an error saying %q", err, s)
					}
				}
				if tc.record == KeyStoreKeychain {
					checkUnavailable(t, dir, ks, which, err)
				}
			} else {
				if err != nil || which != tc.want {
					t.Fatalf("open() = %q, %v; want %q", which, err, tc.want)
				}
				checkRecord(t, dir, tc.want)
				if _, isFile := ks.(FileKeyStore); isFile != (tc.want == KeyStoreFile) {
					t.Errorf("open() = %T, which %q", ks, which)
				}
			}
			if tc.probes != 0 && len(f.withins) != tc.probes {
				t.Errorf("the keychain was probed %d times (%v); want %d", len(f.withins), f.withins, tc.probes)
			}
			if tc.want == KeyStoreFile && !tc.warn && len(f.withins) > 0 {
				t.Errorf("the keychain was probed (%v) for a data dir that keeps files", f.withins)
			}
			if tc.record == "" && tc.want != "" && !tc.used && f.withins[0] != ProbeTimeout {
				t.Errorf("a new data dir's probe had %v; want ProbeTimeout", f.withins[0])
			}
			if got := strings.Contains(logs.String(), "level=WARN"); got != tc.warn {
				t.Errorf("warned = %v; want %v:\n%s", got, tc.warn, logs.String())
			}
		})
	}
}

// TestOpenKeyStoreFollowsFirstStart plays the bug: a data dir's first start
// finds the keychain, a later start under load gets no answer within
// ProbeTimeout; it must wait for the keychain, not make file keys.
func TestOpenKeyStoreFollowsFirstStart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	log := slog.New(slog.DiscardHandler)
	open := func(keychain func(int, time.Duration) error) (string, error) {
		o := opener{dir: dir, kr: KeyringKeyStore{Service: testService + "-fake"}, probe: (&fakeKeychain{answer: keychain}).probe,
			wait: KeychainWait, retry: time.Millisecond, log: log}
		_, which, err := o.open(true)
		return which, err
	}
	if which, err := open(answers); err != nil || which != KeyStoreKeychain {
		t.Fatalf("first start = %q, %v; want %q", which, err, KeyStoreKeychain)
	}
	for i := range 3 {
		if which, err := open(slow); err != nil || which != KeyStoreKeychain {
			t.Fatalf("start %d with a slow keychain = %q, %v; want %q", i+2, which, err, KeyStoreKeychain)
		}
	}
	if files, err := hasKeyFiles(dir); files || err != nil {
		t.Errorf("key files after starts with a slow keychain: %v, %v", files, err)
	}
}

// checkUnavailable fails t unless opening the keys dir dir, recorded as
// keeping its keys in the keychain, failed with ErrKeychainUnavailable and
// left no key file behind.
func checkUnavailable(t *testing.T, dir string, ks KeyStore, which string, err error) {
	t.Helper()
	if !errors.Is(err, ErrKeychainUnavailable) || ks != nil || which != "" {
		t.Fatalf("open() of a data dir whose keys are in a keychain that does not answer = %#v, %q, %v; want ErrKeychainUnavailable", ks, which, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if fmt.Sprint(names) != "["+RecordFile+"]" {
		t.Errorf("keys dir after the failed open holds %v; want only the record", names)
	}
	checkRecord(t, dir, KeyStoreKeychain)
}

// TestRecordFirstWins: of two processes recording a new data dir's store,
// the first wins and the second is told which.
func TestRecordFirstWins(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	if got, err := record(dir, KeyStoreKeychain); err != nil || got != KeyStoreKeychain {
		t.Fatalf("record(new dir, %q) = %q, %v", KeyStoreKeychain, got, err)
	}
	if got, err := record(dir, KeyStoreFile); err != nil || got != KeyStoreKeychain {
		t.Fatalf("record(recorded dir, %q) = %q, %v; want the first record, %q", KeyStoreFile, got, err, KeyStoreKeychain)
	}
	checkRecord(t, dir, KeyStoreKeychain)
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("keys dir holds %d entries; want the record alone (no temporary files)", len(entries))
	}
	if got, err := RecordedKeyStore(filepath.Join(t.TempDir(), "none")); got != "" || err != nil {
		t.Errorf("RecordedKeyStore(missing dir) = %q, %v; want \"\", nil", got, err)
	}
}
