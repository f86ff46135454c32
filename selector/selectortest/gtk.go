package selectortest

import (
	"bufio"
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// formGTK is the GTK form's script, embedded: a test binary built with
// -trimpath cannot find its source tree.
//
//go:embed testdata/form_gtk.py
var formGTK []byte

// GTKForm is the form in GTK 3 (testdata/form_gtk.py) on a desktop of its
// own, with the lines it printed ("pressed Save Shipping").
type GTKForm struct {
	Desktop *xvfb.Desktop
	Lines   *syncbuf.Buffer
	// IDs is whether this ATK can give Cancel its accessible id.
	IDs bool
}

// StartGTK starts Xvfb, a private session bus with the accessibility bus,
// and the GTK form, and waits until the form says it is shown.
func StartGTK(t *testing.T) *GTKForm {
	t.Helper()
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	if err := exec.Command("/usr/bin/python3", "-c", "import gi; gi.require_version('Gtk', '3.0')").Run(); err != nil {
		t.Fatalf("python3-gi with GTK 3 is not installed: run scripts/deps (gir1.2-gtk-3.0 python3-gi): %v", err)
	}
	d.StartA11yBus(t)
	script := filepath.Join(t.TempDir(), "form_gtk.py")
	if err := os.WriteFile(script, formGTK, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/python3", script)
	cmd.Env = d.Env()
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f := &GTKForm{Desktop: d, Lines: &syncbuf.Buffer{}, IDs: true}
	ready, exited := make(chan struct{}), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			switch sc.Text() {
			case "ready":
				close(ready)
			case "no accessible ids":
				f.IDs = false // written before "ready"
			default:
				f.Lines.Write([]byte(sc.Text() + "\n"))
			}
		}
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	select {
	case <-ready:
	case <-exited:
		t.Fatalf("form_gtk.py exited before it was ready: %s", stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatalf("form_gtk.py was not ready in 20 s: %s", stderr.String())
	}
	return f
}
