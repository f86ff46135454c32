// Package xvfb starts a real X desktop for tests: Xvfb on a free display,
// with openbox as its window manager, and xdotool to play the person.
package xvfb

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/syncbuf"
)

// Desktop is a running X display.
type Desktop struct {
	// Display is the DISPLAY value, such as ":7".
	Display string
}

// Start starts Xvfb (1280x800x24) and openbox, and stops both when the test
// ends. Off Linux it skips the test loudly; a missing program fails it, since
// scripts/deps installs them.
func Start(t testing.TB) *Desktop {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skipf("SKIPPED: this test needs Xvfb, which runs on Linux only, not on %s; run it on Linux", runtime.GOOS)
	}
	for _, bin := range []string{"Xvfb", "openbox", "xdotool"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is not installed: run scripts/deps (it installs xvfb, openbox and xdotool)", bin)
		}
	}
	// -displayfd: Xvfb picks a free display itself and writes its number
	// to fd 3 once it accepts connections, so no two tests race for one.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	xvfb := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	xvfb.ExtraFiles = []*os.File{w}
	var xlog syncbuf.Buffer
	xvfb.Stderr = &xlog
	if err := xvfb.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	exited := make(chan struct{})
	go func() { _ = xvfb.Wait(); close(exited) }()
	t.Cleanup(func() { _ = xvfb.Process.Kill(); <-exited })
	number := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		r.Close()
		number <- strings.TrimSpace(line)
	}()
	var display string
	select {
	case n := <-number:
		if n == "" {
			<-exited
			t.Fatalf("Xvfb did not start: %s", xlog.String())
		}
		display = ":" + n
	case <-time.After(20 * time.Second):
		t.Fatal("Xvfb did not report its display in 20 s")
	}
	d := &Desktop{Display: display}
	// Xvfb accepts connections once it reports its display, but a loaded
	// machine has been seen to refuse the first one: wait until a client
	// gets in before the window manager tries.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := d.Xdotool(context.Background(), "getdisplaygeometry"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Xvfb %s accepts no client: %s", display, xlog.String())
		}
	}
	d.startWM(t)
	return d
}

// startWM starts openbox and waits until it manages the display, starting
// it again while it gives up at once. Under load openbox has been seen to
// fail to open a display that xdotool had just reached, three times in a
// second: so it is started again until a deadline, with a growing pause
// between tries, and not a fixed number of times.
func (d *Desktop) startWM(t testing.TB) {
	t.Helper()
	var wmlog syncbuf.Buffer
	deadline := time.Now().Add(20 * time.Second)
start:
	for attempt := 1; ; attempt++ {
		wm := exec.Command("openbox")
		wm.Env = d.Env()
		wm.Stdout, wm.Stderr = &wmlog, &wmlog
		if err := wm.Start(); err != nil {
			t.Fatalf("start openbox: %v", err)
		}
		wmExited := make(chan struct{})
		go func() { _ = wm.Wait(); close(wmExited) }()
		t.Cleanup(func() { _ = wm.Process.Kill(); <-wmExited })
		// openbox is up once it publishes its desktops.
		for ; ; time.Sleep(20 * time.Millisecond) {
			if _, err := d.Xdotool(context.Background(), "get_num_desktops"); err == nil {
				return
			}
			select {
			case <-wmExited:
				if time.Now().Before(deadline) {
					time.Sleep(time.Duration(min(attempt, 10)) * 100 * time.Millisecond)
					continue start
				}
				t.Fatalf("openbox exited, %d tries in 20 s: %s", attempt, wmlog.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("openbox did not start in 20 s: %s", wmlog.String())
			}
		}
	}
}

// Env is the process environment with DISPLAY set to this desktop.
func (d *Desktop) Env() []string {
	env := make([]string, 0, len(os.Environ())+1)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") {
			env = append(env, kv)
		}
	}
	return append(env, "DISPLAY="+d.Display)
}

// Xdotool runs xdotool on the display and returns its standard output
// (window ids for a search); its complaints on stderr go into the error.
func (d *Desktop) Xdotool(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = d.Env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		err = fmt.Errorf("xdotool %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out)), err
}

// Click clicks button at x, y as a person does: the pointer comes to rest
// on the spot before the press, and the button is held a moment. A press
// and release sent back to back let the app act (close its dialog) before
// anything watching the desktop could ask what was under the pointer.
func (d *Desktop) Click(ctx context.Context, x, y, button int) error {
	b := fmt.Sprint(button)
	_, err := d.Xdotool(ctx, "mousemove", fmt.Sprint(x), fmt.Sprint(y), "sleep", "0.15", "mousedown", b, "sleep", "0.1", "mouseup", b)
	return err
}

// Window waits for a visible window called title and returns its id.
func (d *Desktop) Window(ctx context.Context, title string) (string, error) {
	out, err := d.Xdotool(ctx, "search", "--sync", "--onlyvisible", "--name", title)
	if err != nil {
		return "", err
	}
	ids := strings.Fields(out)
	if len(ids) == 0 {
		return "", errors.New("no window " + title)
	}
	return ids[0], nil
}
