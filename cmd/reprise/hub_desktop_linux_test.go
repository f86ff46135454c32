package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/internal/e2e"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/replay/hub"
)

// TestHubDesktopSkillOnTwoWorkers: a desktop skill's rows filed by two
// workers, each offering its own desktop (an Xvfb display with its own
// session and accessibility bus, the GTK form app, a daemon whose grant
// the worker holds). Every row is filed once, on one desktop or the
// other, and both desktops file some; the dry run files none.
func TestHubDesktopSkillOnTwoWorkers(t *testing.T) {
	t.Parallel()
	coord := t.TempDir()
	startDaemonProcess(t, coord)
	cluster := natstest.StartCluster(t, 3, "reprise", "s3cret-hub")
	key := filepath.Join(coord, "hub.key")
	creds := filepath.Join(coord, "hub.credentials")
	if err := os.WriteFile(creds, []byte("reprise:s3cret-hub\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join("testdata", "desktop-customer-skill.yaml")
	hubArgs := []string{"--hub", cluster.URL(), "--hub-credentials", creds, "--hub-key", key}

	// The first run makes the hub key; it waits on the hub for workers.
	dir := t.TempDir()
	sample := e2e.WriteCSV(t, filepath.Join(dir, "sample.csv"), []string{"First Name", "Email"}, [][]string{{"Dry", "dry@example.org"}})
	dry := exec.Command(binary, append([]string{"replay", skill, "--rows", sample, "--dry-run"}, hubArgs...)...)
	dry.Env = append(os.Environ(), daemon.HomeEnv+"="+coord)
	var dryOut syncbuf.Buffer
	dry.Stdout, dry.Stderr = &dryOut, &dryOut
	if err := dry.Start(); err != nil {
		t.Fatal(err)
	}
	dryDone := make(chan error, 1)
	go func() { dryDone <- dry.Wait() }()
	waitFor(t, func() bool { _, err := os.Stat(key); return err == nil }, "the hub key")

	apps := make([]string, 2)
	for i := range apps {
		bus := xvfb.SessionBus(t)
		d := xvfb.Start(t)
		d.StartA11yBusOn(t, bus)
		env := append(append([]string{}, d.Env()...), bus...)
		apps[i] = filepath.Join(t.TempDir(), "customers.txt")
		app := exec.Command("sh", "-c", `while zenity --forms --title "New customer" --add-entry "First Name" --add-entry "Email" >>"$OUT"; do :; done`)
		app.Env = append(append(os.Environ(), env...), "OUT="+apps[i])
		if err := app.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = syscall.Kill(-app.Process.Pid, syscall.SIGKILL)
			_ = app.Process.Kill()
			_ = app.Wait()
		})
		home := t.TempDir()
		e2e.StartDaemonEnv(t, binary, home, env, new(syncbuf.Buffer))
		w := exec.Command(binary, "worker", "--hub", cluster.URL(), "--hub-key", key, "--name", fmt.Sprint("desk", i), "--desktop", "--idle", "0", "--no-marks", "--log-level", "warn")
		w.Env = append(append(os.Environ(), env...), daemon.HomeEnv+"="+home, hub.CredentialsEnv+"=reprise:s3cret-hub")
		var out syncbuf.Buffer
		w.Stdout, w.Stderr = &out, &out
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = w.Process.Signal(syscall.SIGTERM)
			_ = w.Wait()
			if t.Failed() {
				t.Logf("worker %d:\n%s", i, out.String())
			}
		})
	}
	select {
	case err := <-dryDone:
		if err != nil || !strings.Contains(dryOut.String(), "0 committed") {
			t.Fatalf("dry run on the hub: %v\n%s", err, dryOut.String())
		}
	case <-time.After(5 * time.Minute): // a hang, not a speed bound
		_ = dry.Process.Kill()
		t.Fatalf("the dry run on the hub did not finish:\n%s", dryOut.String())
	}

	var rows [][]string
	var want []string
	for i := 1; i <= 8; i++ {
		rows = append(rows, []string{fmt.Sprint("Name", i), fmt.Sprintf("name%d@example.org", i)})
		want = append(want, fmt.Sprintf("Name%d|name%d@example.org", i, i))
	}
	path := e2e.WriteCSV(t, filepath.Join(dir, "eight.csv"), []string{"First Name", "Email"}, rows)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a hang, not a speed bound
	defer cancel()
	run := exec.CommandContext(ctx, binary, append([]string{"replay", skill, "--rows", path, "--yes"}, hubArgs...)...)
	run.Env = append(os.Environ(), daemon.HomeEnv+"="+coord)
	out, err := run.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "8 committed") {
		t.Fatalf("the run on the hub: %v\n%s", err, out)
	}
	var got []string
	for i, app := range apps {
		b, _ := os.ReadFile(app)
		lines := strings.Fields(string(b))
		if len(lines) == 0 {
			t.Errorf("desktop %d filed no row; want both desktops to file some", i)
		}
		got = append(got, lines...)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the two desktops filed %q; want each row exactly once: %q\nthe run said:\n%s", got, want, out)
	}
}
