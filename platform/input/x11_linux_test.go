package input

import (
	"bytes"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/keys"
)

// TestX11Input types into a real GTK entry under Xvfb through XTEST: the
// app gets every character, Shift and Latin-1 included, and Return ends it.
func TestX11Input(t *testing.T) {
	d := xvfb.Start(t)
	if _, err := exec.LookPath("zenity"); err != nil {
		t.Fatal("zenity is not installed: run scripts/deps")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	app := exec.CommandContext(ctx, "zenity", "--entry", "--title", "Type here", "--text", "Name")
	app.Env = d.Env()
	var out bytes.Buffer
	app.Stdout = &out
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	win, err := d.Window(ctx, "Type here")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Xdotool(ctx, "windowactivate", "--sync", win); err != nil {
		t.Fatal(err)
	}
	geo, err := d.Xdotool(ctx, "getwindowgeometry", "--shell", win)
	if err != nil {
		t.Fatal(err)
	}
	in, err := NewX11(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	// The entry has the focus when the dialog opens; a click in the
	// window's middle row lands on it too.
	x, y, w, h := shellInt(geo, "X"), shellInt(geo, "Y"), shellInt(geo, "WIDTH"), shellInt(geo, "HEIGHT")
	if err := in.Click(x+w/2, y+h/2, 1); err != nil {
		t.Fatal(err)
	}
	if err := in.Press(mustChord(t, "ctrl+a")); err != nil {
		t.Fatal(err)
	}
	want := "Hello, World! café 42"
	if err := in.Type(want); err != nil {
		t.Fatal(err)
	}
	idle, err := in.Idle()
	if err != nil || idle > time.Second {
		t.Errorf("idle %s, %v right after typing; want under a second", idle, err)
	}
	if err := in.Press(mustChord(t, "Return")); err != nil {
		t.Fatal(err)
	}
	if err := app.Wait(); err != nil {
		t.Fatalf("zenity: %v", err)
	}
	if got := strings.TrimSpace(out.String()); got != want {
		t.Fatalf("the app got %q; want %q", got, want)
	}
}

func mustChord(t *testing.T, s string) keys.Chord {
	c, err := keys.ParseChord(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func shellInt(shell, key string) int {
	for _, l := range strings.Split(shell, "\n") {
		if v, ok := strings.CutPrefix(l, key+"="); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}
