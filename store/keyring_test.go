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
	"time"

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

// TestOpenKeyStoreKeychain: a new data dir with a working keychain keeps its
// keys there and records it; a later start finds them there again; a data
// dir recorded as keeping files keeps them, a keychain answering or not.
func TestOpenKeyStoreKeychain(t *testing.T) {
	needSecretService(t)
	service := testService + "-open"
	t.Cleanup(func() { _ = keyring.DeleteAll(service) })
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	dir := t.TempDir()
	ks, which, err := OpenKeyStore(dir, service, false, log)
	if _, ok := ks.(KeyringKeyStore); !ok || which != KeyStoreKeychain || err != nil {
		t.Fatalf("OpenKeyStore with a Secret Service = %T, %q, %v; want KeyringKeyStore, %q", ks, which, err, KeyStoreKeychain)
	}
	checkRecord(t, dir, KeyStoreKeychain)
	if strings.Contains(logs.String(), "WARN") {
		t.Errorf("OpenKeyStore warned with a working keychain:\n%s", logs.String())
	}
	if err := ks.Put(AuditChainKey, []byte("k1")); err != nil {
		t.Fatal(err)
	}

	again, which, err := OpenKeyStore(dir, service, true, log)
	if err != nil || which != KeyStoreKeychain {
		t.Fatalf("OpenKeyStore of a data dir recorded as %s = %q, %v", KeyStoreKeychain, which, err)
	}
	if got, err := again.Get(AuditChainKey); err != nil || string(got) != "k1" {
		t.Fatalf("the key put at the first start = %q, %v; want k1", got, err)
	}

	files := t.TempDir()
	if _, err := record(files, KeyStoreFile); err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	ks, which, err = OpenKeyStore(files, service, true, log)
	if fks, ok := ks.(FileKeyStore); !ok || fks.Dir != files || which != KeyStoreFile || err != nil {
		t.Fatalf("OpenKeyStore of a data dir recorded as %s, with a keychain = %#v, %q, %v; want its files", KeyStoreFile, ks, which, err)
	}
	if !strings.Contains(logs.String(), "level=INFO") || !strings.Contains(logs.String(), "an OS keychain is not used for it") {
		t.Errorf("OpenKeyStore did not say at INFO that a data dir with files keeps them:\n%s", logs.String())
	}
}

// checkRecord fails t unless the keys dir dir records which, privately.
func checkRecord(t *testing.T, dir, which string) {
	t.Helper()
	path := filepath.Join(dir, RecordFile)
	b, err := os.ReadFile(path)
	if err != nil || string(b) != which+"\n" {
		t.Fatalf("record %s = %q, %v; want %q", path, b, err, which+"\n")
	}
	if fi, err := os.Stat(path); runtime.GOOS != "windows" && (err != nil || fi.Mode().Perm() != 0o600) {
		t.Errorf("record %s: mode %v, %v; want 0600", path, fi.Mode().Perm(), err)
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

// checkFallback opens a new data dir's key store under dir, and one
// recorded as keeping its keys in the keychain, where no keychain answers.
func checkFallback(t *testing.T, dir string) {
	t.Helper()
	if ok, reason := (KeyringKeyStore{Service: testService}).Probe(); ok || reason == "" {
		t.Fatalf("Probe() = %v, %q; want false and a reason", ok, reason)
	}
	fresh := filepath.Join(dir, "new")
	var logs bytes.Buffer
	ks, which, err := OpenKeyStore(fresh, testService+"-open", false, slog.New(slog.NewTextHandler(&logs, nil)))
	if fks, ok := ks.(FileKeyStore); !ok || fks.Dir != fresh || which != KeyStoreFile || err != nil {
		t.Fatalf("OpenKeyStore without a keychain = %#v, %q, %v; want FileKeyStore{Dir: %q}, %q", ks, which, err, fresh, KeyStoreFile)
	}
	want := "level=WARN msg=\"no OS keychain: keys are kept in files readable only by you under " + fresh + ", for good"
	if !strings.Contains(logs.String(), want) {
		t.Fatalf("OpenKeyStore logged:\n%s\nwant a line with %s", logs.String(), want)
	}
	checkRecord(t, fresh, KeyStoreFile)
	t.Logf("fallback log: %s", strings.TrimSpace(logs.String()))

	// The real probe, against the same missing keychain, with a short wait.
	recorded := filepath.Join(dir, "recorded")
	if _, err := record(recorded, KeyStoreKeychain); err != nil {
		t.Fatal(err)
	}
	kr := KeyringKeyStore{Service: testService + "-open"}
	o := opener{dir: recorded, kr: kr, probe: kr.probe, wait: 2 * time.Second, retry: 50 * time.Millisecond, log: slog.New(slog.NewTextHandler(&logs, nil))}
	ks, which, err = o.open(true)
	checkUnavailable(t, recorded, ks, which, err)
	t.Logf("fallback log: recorded keychain: %v", err)
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
