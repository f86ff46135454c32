package store

import (
	"bytes"
	"encoding/base64"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

// testService keeps the tests' items apart from reprise's own.
const testService = "reprise-test"

// needSecretService fails the test, never skips it, on Linux when no Secret
// Service answers: a skipped keychain test reads as a passing one.
func needSecretService(t testing.TB) KeyringKeyStore {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skipf("SKIPPED: the keychain tests run on Linux against a private gnome-keyring; on %s they would touch your own keychain", runtime.GOOS)
	}
	ks := KeyringKeyStore{Service: testService}
	if ok, reason := ks.Probe(); !ok {
		t.Fatalf("no Secret Service to test against (%s).\nRun the tests through scripts/with-keyring, which starts a private D-Bus session and an unlocked gnome-keyring:\n\tscripts/with-keyring go test ./store/\nor\tscripts/with-keyring make test\n(scripts/deps installs gnome-keyring and D-Bus)", reason)
	}
	t.Cleanup(func() { _ = keyring.DeleteAll(testService) })
	return ks
}

func TestKeyringKeyStore(t *testing.T) {
	ks := needSecretService(t)
	testKeyStore(t, ks)

	// The item is one per key name, under the service, base64-encoded.
	key, err := NewDataKey()
	if err != nil {
		t.Fatal(err)
	}
	name := DataKeyName("rec_0a1b2c3d-0000-4000-8000-000000000001")
	if err := ks.Put(name, key); err != nil {
		t.Fatal(err)
	}
	raw, err := keyring.Get(testService, name)
	if err != nil {
		t.Fatalf("keyring.Get(%q, %q) = %v", testService, name, err)
	}
	if dec, err := base64.StdEncoding.DecodeString(raw); err != nil || !bytes.Equal(dec, key) {
		t.Fatalf("stored item is not the base64 of the key: decodes to %x, %v", dec, err)
	}

	// An item someone else wrote that is not base64 is an error, not a key.
	if err := keyring.Set(testService, "not-base64", "%%%"); err != nil {
		t.Fatal(err)
	}
	if _, err := ks.Get("not-base64"); err == nil || strings.Contains(err.Error(), "%%%") {
		t.Fatalf("Get of a non-base64 item = %v; want an error without its value", err)
	}
}

// TestKeyringSharedKeysMove: a key filed under the shared service, as
// every data dir's were, is read by a data dir's own store and kept under
// its own service from then on; a key in neither is not found.
func TestKeyringSharedKeysMove(t *testing.T) {
	needSecretService(t)
	shared := KeyringKeyStore{Service: testService + "-shared"}
	own := KeyringKeyStore{Service: testService + "-own", Shared: shared.Service}
	t.Cleanup(func() { _ = keyring.DeleteAll(shared.Service); _ = keyring.DeleteAll(own.Service) })
	if err := shared.Put("skills-seal", []byte("k1")); err != nil {
		t.Fatal(err)
	}
	if got, err := own.Get("skills-seal"); err != nil || string(got) != "k1" {
		t.Fatalf("Get of a shared key = %q, %v; want it read through", got, err)
	}
	if err := shared.Delete("skills-seal"); err != nil {
		t.Fatal(err)
	}
	if got, err := (KeyringKeyStore{Service: own.Service}).Get("skills-seal"); err != nil || string(got) != "k1" {
		t.Fatalf("after the read, the data dir's own item = %q, %v; want the key kept there", got, err)
	}
	if _, err := own.Get("replay-dedupe"); !errors.Is(err, ErrKeyNotFound) {
		t.Fatalf("Get of a key in neither service = %v; want ErrKeyNotFound", err)
	}
}

func TestOpenKeyStoreKeychain(t *testing.T) {
	needSecretService(t)
	var logs bytes.Buffer
	dir := t.TempDir()
	ks, which := OpenKeyStore(dir, testService+"-open", slog.New(slog.NewTextHandler(&logs, nil)))
	if _, ok := ks.(KeyringKeyStore); !ok || which != KeyStoreKeychain {
		t.Fatalf("OpenKeyStore with a Secret Service = %T, %q; want KeyringKeyStore, %q", ks, which, KeyStoreKeychain)
	}
	if strings.Contains(logs.String(), "WARN") {
		t.Errorf("OpenKeyStore warned with a working keychain:\n%s", logs.String())
	}
}

// TestOpenKeyStoreFallback runs OpenKeyStore where no keychain answers.
// Without a session bus the pre-check answers; with a bus address that leads
// nowhere go-keyring itself fails. godbus keeps its first session connection
// for the whole process, so a bus address set after any keyring call would be
// ignored: that case runs in a child process that has never connected.
func TestOpenKeyStoreFallback(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("SKIPPED: faking a missing keychain needs D-Bus; on %s there is always one", runtime.GOOS)
	}
	if os.Getenv("REPRISE_TEST_FALLBACK_CHILD") == "1" {
		checkFallback(t, os.Getenv("REPRISE_TEST_DIR"))
		return
	}
	t.Run("no-bus", func(t *testing.T) {
		t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
		if sessionBusMissing() == "" {
			t.Skip("SKIPPED: this machine has a session bus at /run/user/<uid>/bus; the bogus-bus case still runs")
		}
		checkFallback(t, t.TempDir())
	})
	t.Run("bogus-bus", func(t *testing.T) {
		dir := t.TempDir()
		runFallbackChild(t, dir, nil, "DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(dir, "no-such-bus"))
	})
	// A bus whose Secret Service starts on demand with no login keyring, as
	// on a headless machine: unlocking fails, it must not hang.
	t.Run("locked-keyring", func(t *testing.T) {
		drs, err := exec.LookPath("dbus-run-session")
		if err != nil {
			t.Fatalf("dbus-run-session: %v (scripts/deps installs it)", err)
		}
		dir := t.TempDir()
		run := filepath.Join(dir, "run")
		if err := os.Mkdir(run, 0o700); err != nil {
			t.Fatal(err)
		}
		runFallbackChild(t, dir, []string{drs, "--"}, "XDG_DATA_HOME="+dir, "XDG_RUNTIME_DIR="+run)
	})
}

// runFallbackChild runs checkFallback in a fresh test process, under the
// command prefix, with env added.
func runFallbackChild(t *testing.T, dir string, prefix []string, env ...string) {
	t.Helper()
	args := append(prefix, os.Args[0], "-test.run=^TestOpenKeyStoreFallback$", "-test.v")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(),
		"REPRISE_TEST_FALLBACK_CHILD=1",
		"REPRISE_TEST_DIR="+dir,
		"GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestOpenKeyStoreFallback") {
		t.Fatalf("child did not run the fallback check:\n%s", out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if _, msg, ok := strings.Cut(l, "fallback log: "); ok {
			t.Log("child " + msg)
		}
	}
}

func checkFallback(t *testing.T, dir string) {
	t.Helper()
	if ok, reason := (KeyringKeyStore{Service: testService}).Probe(); ok || reason == "" {
		t.Fatalf("Probe() = %v, %q; want false and a reason", ok, reason)
	}
	var logs bytes.Buffer
	ks, which := OpenKeyStore(dir, testService+"-open", slog.New(slog.NewTextHandler(&logs, nil)))
	if fks, ok := ks.(FileKeyStore); !ok || fks.Dir != dir || which != KeyStoreFile {
		t.Fatalf("OpenKeyStore without a keychain = %#v, %q; want FileKeyStore{Dir: %q}, %q", ks, which, dir, KeyStoreFile)
	}
	want := "level=WARN msg=\"no OS keychain: keys are kept in files readable only by you under " + dir + "\""
	if !strings.Contains(logs.String(), want) {
		t.Fatalf("OpenKeyStore logged:\n%s\nwant a line with %s", logs.String(), want)
	}
	t.Logf("fallback log: %s", strings.TrimSpace(logs.String()))
}

// BenchmarkKeyringKeyStore times the keychain calls a recording makes (put
// its data key, get it back, delete it at eviction) and a start-up Probe.
func BenchmarkKeyringKeyStore(b *testing.B) {
	ks := needSecretService(b)
	key, err := NewDataKey()
	if err != nil {
		b.Fatal(err)
	}
	name := DataKeyName(testRec)
	b.Run("Put", func(b *testing.B) {
		for b.Loop() {
			if err := ks.Put(name, key); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Get", func(b *testing.B) {
		for b.Loop() {
			if _, err := ks.Get(name); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Put+Delete", func(b *testing.B) {
		for b.Loop() {
			if err := ks.Put(name, key); err != nil {
				b.Fatal(err)
			}
			if err := ks.Delete(name); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Probe", func(b *testing.B) {
		for b.Loop() {
			if ok, reason := ks.Probe(); !ok {
				b.Fatal(reason)
			}
		}
	})
}
