package consent

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
)

// desktop is an Xvfb display with openbox, where xdotool plays the person.
type desktop struct {
	display string
}

// startDesktop starts Xvfb on a free display and a window manager on it,
// and stops both when the test ends. Missing programs fail the test: this
// is the real dialog, and scripts/deps installs them.
func startDesktop(t *testing.T) *desktop {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skipf("SKIPPED: the zenity dialog test needs Xvfb, which runs on Linux only, not on %s; run it on Linux", runtime.GOOS)
	}
	for _, bin := range []string{"Xvfb", "openbox", "xdotool", "zenity"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is not installed: run scripts/deps (it installs xvfb, openbox, xdotool and zenity)", bin)
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
	var xlog bytes.Buffer
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
	if _, err := os.Stat("/tmp/.X11-unix/X" + display[1:]); err != nil {
		t.Fatalf("Xvfb %s has no socket: %v", display, err)
	}
	d := &desktop{display: display}
	wm := exec.Command("openbox")
	wm.Env = append(os.Environ(), "DISPLAY="+display)
	var wmlog syncBuffer
	wm.Stdout, wm.Stderr = &wmlog, &wmlog
	if err := wm.Start(); err != nil {
		t.Fatalf("start openbox: %v", err)
	}
	wmExited := make(chan struct{})
	go func() { _ = wm.Wait(); close(wmExited) }()
	t.Cleanup(func() { _ = wm.Process.Kill(); <-wmExited })
	// openbox is up once it publishes its desktops.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := d.xdotool(context.Background(), "get_num_desktops"); err == nil {
			break
		}
		select {
		case <-wmExited:
			t.Fatalf("openbox exited: %s", wmlog.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("openbox did not start in 10 s: %s", wmlog.String())
		}
	}
	return d
}

// xdotool runs xdotool on the display and returns its standard output
// (window ids for a search); its complaints on stderr go into the error.
func (d *desktop) xdotool(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+d.display)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		err = fmt.Errorf("xdotool %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out)), err
}

// press waits for the window called title, brings it to the front as a
// person's click would, and types keys into it.
func (d *desktop) press(t *testing.T, title string, keys ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := d.xdotool(ctx, "search", "--sync", "--onlyvisible", "--name", title)
	if err != nil {
		t.Fatalf("no window %q: %v", title, err)
	}
	win := strings.Fields(out)[0]
	if _, err := d.xdotool(ctx, "windowactivate", "--sync", win); err != nil {
		t.Fatalf("activate %q: %v", title, err)
	}
	if _, err := d.xdotool(ctx, append([]string{"key", "--delay", "50"}, keys...)...); err != nil {
		t.Fatalf("keys %v into %q: %v", keys, title, err)
	}
}

// windows returns how many visible windows are called title once the X
// server has caught up: a killed client's windows go a moment after it.
func (d *desktop) windows(title string) int {
	var n int
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out, _ := d.xdotool(context.Background(), "search", "--onlyvisible", "--name", title)
		if n = len(strings.Fields(out)); n == 0 {
			return 0
		}
	}
	return n
}

func TestZenityUnderXvfb(t *testing.T) {
	d := startDesktop(t)
	z := &Zenity{Env: []string{"DISPLAY=" + d.display}}
	if ok, why := z.Available(); !ok {
		t.Fatalf("Zenity.Available() = false, %q; want true on %s", why, d.display)
	}
	tests := []struct {
		name         string
		answer       []string // keys on the prompt: Deny has the focus
		remember     []string // keys on the remember question: "Just this once" has it
		want         Decision
		promptTitle  string
		requestRoute Request
	}{
		{"approve once", []string{"Tab", "Return"}, []string{"Return"}, Decision{Approved: true}, "Build this skill using the cloud?", cloudReq},
		{"deny and remember", []string{"Return"}, []string{"Tab", "Return"}, Decision{Remember: true}, "Start recording?", extractReq},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			type result struct {
				d   Decision
				err error
			}
			done := make(chan result, 1)
			go func() {
				dec, err := z.Ask(context.Background(), NewPrompt(tt.requestRoute, ""))
				done <- result{dec, err}
			}()
			d.press(t, tt.promptTitle, tt.answer...)
			d.press(t, rememberTitle, tt.remember...)
			select {
			case r := <-done:
				if r.err != nil || r.d != tt.want {
					t.Fatalf("Zenity.Ask = %+v, %v; want %+v", r.d, r.err, tt.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("Zenity.Ask did not return after the person answered")
			}
		})
	}

	t.Run("closed when another prompter answers first", func(t *testing.T) {
		pending := NewPending()
		a := &Approver{Prompters: []Prompter{z, pending}}
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, _ = d.xdotool(ctx, "search", "--sync", "--onlyvisible", "--name", "Start recording")
			answerFirst(pending, func(id string) error { return pending.Approve(id, false) })
		}()
		v, err := a.Decide(context.Background(), extractReq, "")
		if err != nil || v != (Verdict{Approved: true, By: "pending"}) {
			t.Fatalf("Decide = %+v, %v; want approved by pending", v, err)
		}
		if n := d.windows("Start recording"); n != 0 {
			t.Fatalf("%d zenity windows still open after the decision; want 0", n)
		}
	})

	t.Run("unavailable without a display", func(t *testing.T) {
		t.Setenv("DISPLAY", "")
		t.Setenv("WAYLAND_DISPLAY", "")
		if ok, why := (&Zenity{}).Available(); ok || !strings.Contains(why, "DISPLAY") {
			t.Fatalf("Zenity.Available() with no display = %v, %q", ok, why)
		}
		if ok, why := (&Zenity{Path: "zenity-not-here", Env: z.Env}).Available(); ok || !strings.Contains(why, "not installed") {
			t.Fatalf("Zenity.Available() with no binary = %v, %q", ok, why)
		}
	})

	t.Run("a dialog that cannot open is an error, not an answer", func(t *testing.T) {
		bad := &Zenity{Env: []string{"DISPLAY=:1" + strings.TrimPrefix(d.display, ":") + "9"}}
		_, err := bad.Ask(context.Background(), NewPrompt(extractReq, ""))
		if err == nil || errors.Is(err, context.Canceled) {
			t.Fatalf("Zenity.Ask on a display that does not exist = %v; want an error", err)
		}
	})
}

func TestWrap(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"", 10, ""},
		{"short", 10, "short"},
		{"one two three four", 9, "one two\nthree\nfour"},
		{"para one\n\npara two", 20, "para one\n\npara two"},
		{"• item with words", 10, "• item\n  with\n  words"},
		{"averyveryverylongword x", 5, "averyveryverylongword\nx"},
		{"é é é é", 3, "é é\né é"},
	}
	for _, tt := range tests {
		if got := wrap(tt.in, tt.width); got != tt.want {
			t.Errorf("wrap(%q, %d) = %q; want %q", tt.in, tt.width, got, tt.want)
		}
	}
	for _, line := range strings.Split(wrap(NewPrompt(cloudReq, "").Body, wrapWidth), "\n") {
		if n := len([]rune(line)); n > wrapWidth {
			t.Errorf("wrapped prompt line is %d characters: %q", n, line)
		}
	}
}
