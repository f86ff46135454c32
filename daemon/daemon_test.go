package daemon

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/store"
)

func startDaemon(t *testing.T, home string) *Daemon {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d, err := Start(ctx, Options{Home: home})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(d.Close)
	return d
}

func TestDaemonLifecycle(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	d := startDaemon(t, home)

	fi, err := os.Stat(filepath.Join(home, api.ClientFile))
	if err != nil {
		t.Fatalf("client file: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("client file mode %v; want 0600", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(home); fi.Mode().Perm() != 0o700 {
		t.Errorf("data dir mode %v; want 0700", fi.Mode().Perm())
	}

	st, err := client.QueryStatus(home)
	if err != nil {
		t.Fatalf("QueryStatus: %v", err)
	}
	if st.MachineID != d.Server().MachineID() || st.PID != os.Getpid() || len(st.Streams) != 4 {
		t.Errorf("status = %+v; want this daemon's machine id, pid and 4 streams", st)
	}
	for _, s := range st.Streams {
		if s.Messages != 0 {
			t.Errorf("stream %s has %d messages on a new store", s.Name, s.Messages)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := Start(ctx, Options{Home: home}); err == nil || !strings.Contains(err.Error(), "another reprise daemon") {
		t.Fatalf("second Start on the same home = %v; want refused", err)
	}

	d.Close()
	d.Close() // twice is fine
	if _, err := os.Stat(filepath.Join(home, api.ClientFile)); !os.IsNotExist(err) {
		t.Errorf("client file after Close: %v; want removed", err)
	}
	if _, err := client.QueryStatus(home); err != client.ErrNotRunning {
		t.Errorf("QueryStatus after Close = %v; want ErrNotRunning", err)
	}
}

func TestDaemonRestartKeepsStoreAndIdentity(t *testing.T) {
	home := t.TempDir()
	d := startDaemon(t, home)
	id := d.Server().MachineID()
	extSecret := d.Server().Password(embedded.RoleExtension)
	wsURL := d.Server().WebSocketURL()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pub := events.NewPublisher(d.JetStream())
	step := &events.Step{Seq: 1, Actor: events.ActorHuman, Action: events.ActionClick, Cursor: []int{1, 2}, Outcome: events.OutcomeOK}
	if _, err := pub.PublishStep(ctx, events.RecordingSubject("rec_1", events.RecStep), "rec_1", step); err != nil {
		t.Fatal(err)
	}
	d.Close()

	d2 := startDaemon(t, home)
	if d2.Server().MachineID() != id {
		t.Errorf("machine id changed across restart: %s -> %s", id, d2.Server().MachineID())
	}
	if got := d2.Server().WebSocketURL(); got != wsURL {
		t.Errorf("the extension's URL changed across restart: %s -> %s; a paired extension would lose the daemon", wsURL, got)
	}
	if d2.Server().Password(embedded.RoleExtension) != extSecret {
		t.Error("the extension's secret changed across restart; a paired extension would be locked out")
	}
	s, err := d2.JetStream().Stream(ctx, events.StreamRecordings)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.CachedInfo().State.Msgs; n != 1 {
		t.Errorf("RECORDINGS holds %d messages after restart; want 1", n)
	}
}

func TestStaleClientFileDoesNotBlockStart(t *testing.T) {
	home := t.TempDir()
	// What a SIGKILLed daemon leaves behind: a file naming a dead port.
	writeClientInfo(home, api.ClientInfo{URL: "nats://127.0.0.1:1", User: "cli", Password: "x", PID: 1})
	startDaemon(t, home)
	if _, err := client.QueryStatus(home); err != nil {
		t.Fatalf("QueryStatus after start over a stale file: %v", err)
	}
}

func TestStartRefusesBadSettings(t *testing.T) {
	ctx := context.Background()
	_, err := Start(ctx, Options{Home: t.TempDir(), Config: Config{ClientPort: -5}})
	if err == nil || !strings.Contains(err.Error(), "client_port") {
		t.Fatalf("Start with a bad port = %v; want an error naming client_port", err)
	}
}

// TestOneDaemonPerHome: the home's lock, not client.json, keeps a second
// daemon out, whether both start at the same instant or the first one's
// credentials file is gone.
func TestOneDaemonPerHome(t *testing.T) {
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	type started struct {
		d   *Daemon
		err error
	}
	results := make(chan started, 4)
	for range 4 {
		go func() {
			d, err := Start(ctx, Options{Home: home})
			results <- started{d, err}
		}()
	}
	var up []*Daemon
	for range 4 {
		r := <-results
		if r.err == nil {
			up = append(up, r.d)
			t.Cleanup(r.d.Close)
		} else if !strings.Contains(r.err.Error(), "another reprise daemon (pid "+strconv.Itoa(os.Getpid())) {
			t.Errorf("a refused start says %q; want who holds the home", r.err)
		}
	}
	if len(up) != 1 {
		t.Fatalf("%d daemons came up on one home at once; want 1", len(up))
	}
	if err := os.Remove(filepath.Join(home, api.ClientFile)); err != nil {
		t.Fatal(err)
	}
	if d, err := Start(ctx, Options{Home: home}); err == nil {
		d.Close()
		t.Fatal("a second daemon started once client.json was deleted; want refused by the lock")
	}
	up[0].Close()
	startDaemon(t, home) // the lock is released with the daemon
}

// TestStartMakesALooseHomePrivate: a home and key files readable by others
// are made private at start, with a warning.
func TestStartMakesALooseHomePrivate(t *testing.T) {
	home := t.TempDir()
	keys := filepath.Join(home, "keys")
	if err := os.Mkdir(keys, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keys, "x.key"), []byte("0123"), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, mode := range map[string]os.FileMode{home: 0o755, keys: 0o755, filepath.Join(keys, "x.key"): 0o644} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	var logs syncbuf.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	d, err := Start(ctx, Options{Home: home, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if loose := store.Loose(home); len(loose) > 0 {
		t.Errorf("still readable by others after start: %v", loose)
	}
	if !strings.Contains(logs.String(), "readable by other users") {
		t.Errorf("no warning about the loose data dir:\n%s", logs.String())
	}
}
