package desktop

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// TestWaitsForThePersonUnderXvfb: a person (xdotool) moves the pointer
// while a replay step is due; the step waits, says so, and sends nothing
// until the person has left the pointer alone for the quiet time; then it
// clicks.
func TestWaitsForThePersonUnderXvfb(t *testing.T) {
	a := startForm(t)
	in, err := input.NewX11(a.d.Display)
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncbuf.Buffer{}
	ex, err := New(Options{Input: in, Quiet: 3 * time.Second, FindTimeout: 10 * time.Second,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ex.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	win, err := a.d.Window(ctx, "New customer")
	if err != nil {
		t.Fatal(err)
	}
	geo, err := a.d.Xdotool(ctx, "getwindowgeometry", "--shell", win)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("form at %s", strings.ReplaceAll(geo, "\n", " "))

	// The person moves the pointer every 100 ms; the step is started
	// once they are at it.
	move := func(i int) {
		if _, err := a.d.Xdotool(ctx, "mousemove", "--window", win, "20", strconv.Itoa(10+i%10*5)); err != nil {
			t.Error(err)
		}
	}
	move(1)
	done := make(chan replay.Outcome, 1)
	go func() {
		out, err := ex.Do(ctx, replay.Step{Index: 0, Step: skills.Step{Action: "click", Floor: skills.Floor{ActiveWindow: "New customer", Cursor: []int{20, 20}}}})
		if err != nil {
			out.Error = err.Error()
		}
		done <- out
	}()
	for i := 0; !strings.Contains(logs.String(), "waiting for the person"); i++ {
		move(i)
		time.Sleep(100 * time.Millisecond)
	}
	for i := range 10 { // a second more of the person at the pointer
		move(i)
		select {
		case out := <-done:
			t.Fatalf("the step ran while the person used the pointer: %+v", out)
		default:
		}
		time.Sleep(100 * time.Millisecond)
	}
	out := <-done
	if !out.OK {
		t.Fatalf("the step once the person left: %+v", out)
	}
	if !strings.Contains(logs.String(), "the person left the keyboard") {
		t.Errorf("the log does not say the wait ended:\n%s", logs.String())
	}
}
