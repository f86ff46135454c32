package consent

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
)

// desktop is an Xvfb display with openbox, where xdotool plays the person.
type desktop struct {
	*xvfb.Desktop
	display string
}

// startDesktop starts the desktop for the zenity dialog, and stops it when
// the test ends.
func startDesktop(t *testing.T) *desktop {
	t.Helper()
	if _, err := exec.LookPath("zenity"); err != nil && runtime.GOOS == "linux" {
		t.Fatal("zenity is not installed: run scripts/deps")
	}
	d := xvfb.Start(t)
	return &desktop{Desktop: d, display: d.Display}
}

func (d *desktop) xdotool(ctx context.Context, args ...string) (string, error) {
	return d.Xdotool(ctx, args...)
}

// press waits for the window called title, brings it to the front as a
// person's click would, and types keys into it.
func (d *desktop) press(t *testing.T, title string, keys ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// A search walks every window; one that closes under it (the dialog
	// before this one) fails the search with BadWindow: search again.
	out, err := d.xdotool(ctx, "search", "--sync", "--onlyvisible", "--name", title)
	for err != nil && ctx.Err() == nil && strings.Contains(err.Error(), "BadWindow") {
		out, err = d.xdotool(ctx, "search", "--sync", "--onlyvisible", "--name", title)
	}
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
