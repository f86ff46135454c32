package desktop

import (
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/extract"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/platform/screen"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/replaytest"
	"github.com/reprise-dev/reprise/skills"
)

// app is a zenity form on a desktop of its own, and what it printed.
type app struct {
	d    *xvfb.Desktop
	out  *syncbuf.Buffer
	done chan struct{}
}

func startForm(t *testing.T) *app {
	t.Helper()
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	cmd := exec.Command("zenity", "--forms", "--title", "New customer", "--add-entry", "First Name", "--add-entry", "Email")
	cmd.Env = d.Env()
	a := &app{d: d, out: &syncbuf.Buffer{}, done: make(chan struct{})}
	cmd.Stdout = a.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(a.done) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-a.done })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := d.Window(ctx, "New customer"); err != nil {
		t.Fatal(err)
	}
	return a
}

func newExecutor(t *testing.T, d *xvfb.Desktop, withAX bool, find time.Duration) *Executor {
	t.Helper()
	in, err := input.NewX11(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Input: in, Quiet: 100 * time.Millisecond, FindTimeout: find}
	if withAX {
		tree, err := atspi.New(atspi.Options{Display: d.Display, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tree.Close() })
		o.AX = ax.ATSPI{Enricher: tree}
	}
	ex, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ex.Close() })
	return ex
}

func (a *app) output(t *testing.T) string {
	t.Helper()
	select {
	case <-a.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the form did not close")
	}
	return strings.TrimSpace(a.out.String())
}

// TestFillsAFormThroughTheAccessibilityTree: each field is found once by
// its label and set through EditableText, read back, and OK is pressed by
// its action; the app prints exactly what was filled.
func TestFillsAFormThroughTheAccessibilityTree(t *testing.T) {
	a := startForm(t)
	ex := newExecutor(t, a.d, true, 10*time.Second)
	ctx := context.Background()
	window := skills.Floor{ActiveWindow: "New customer"}
	steps := []replay.Step{
		{Index: 0, Step: skills.Step{Action: "fill", Role: "textbox", Label: "First Name", Value: "Ada", Floor: window, ReadBack: &skills.ReadBack{Kind: "value", Expect: "Ada"}}},
		{Index: 1, Step: skills.Step{Action: "fill", Role: "textbox", Label: "Email", Value: "ada@example.org", Floor: window, ReadBack: &skills.ReadBack{Kind: "value", Expect: "ada@example.org"}}},
		{Index: 2, Step: skills.Step{Action: "click", Role: "button", Label: "OK", Floor: window, Destructive: true}},
	}
	for _, st := range steps {
		out, err := ex.Do(ctx, st)
		if err != nil || !out.OK || out.Via != replay.ViaAX {
			t.Fatalf("step %d = %+v, %v; want done through the accessibility tree", st.Index+1, out, err)
		}
	}
	if got := a.output(t); got != "Ada|ada@example.org" {
		t.Fatalf("the app printed %q", got)
	}
}

// TestFallsBackToInputAtTheRecordedPoint: with no accessibility tree, a
// fill clicks where the person clicked and types.
func TestFallsBackToInputAtTheRecordedPoint(t *testing.T) {
	a := startForm(t)
	// Where the First Name entry is, as the recording would have it.
	ax, err := atspi.New(atspi.Options{Display: a.d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer ax.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	entry := firstName(ctx, t, ax)
	c := entry.Bounds.Min.Add(entry.Bounds.Max).Div(2)
	ex := newExecutor(t, a.d, false, 10*time.Second)
	out, err := ex.Do(ctx, replay.Step{Step: skills.Step{Action: "fill", Value: "Grace", Floor: skills.Floor{Cursor: []int{c.X, c.Y}, ActiveWindow: "New customer"}}})
	if err != nil || !out.OK || out.Via != replay.ViaFloor {
		t.Fatalf("fill by input = %+v, %v", out, err)
	}
	// The app handles the keys a moment after the server has them.
	got := ""
	for deadline := time.Now().Add(3 * time.Second); got != "Grace" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		got, _ = ax.Text(ctx, entry)
	}
	if got != "Grace" {
		t.Fatalf("the First Name entry holds %q; want what was typed", got)
	}
}

// TestConformance runs the executors' suite against the desktop executor.
func TestConformance(t *testing.T) {
	a := startForm(t)
	replaytest.Run(t, replaytest.Target{
		Open: skills.Step{Action: "focus_window", Floor: skills.Floor{ActiveWindow: "New customer"}},
		New:  func(t *testing.T) replay.Executor { return newExecutor(t, a.d, true, 500*time.Millisecond) },
	})
}

// TestFloorLooksBeforeItClicksAndReadsBack: input goes to a recorded point
// only while the area around it looks as in the recorded frame, and a value
// typed there is read back from the screen by OCR.
func TestFloorLooksBeforeItClicksAndReadsBack(t *testing.T) {
	a := startForm(t)
	ax, err := atspi.New(atspi.Options{Display: a.d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer ax.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	entry := firstName(ctx, t, ax)
	c := entry.Bounds.Min.Add(entry.Bounds.Max).Div(2)
	grab, err := screen.NewX11(a.d.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer grab.Close()
	recorded, err := screen.Encode(drawn(ctx, t, grab, entry))
	if err != nil {
		t.Fatal(err)
	}
	in, err := input.NewX11(a.d.Display)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := New(Options{Input: in, Quiet: 100 * time.Millisecond, FindTimeout: 3 * time.Second,
		Recorded: func(_ context.Context, ref string) ([]byte, error) { return recorded, nil },
		Screen:   func() (image.Image, error) { return grab.Grab() },
		OCR: func(ctx context.Context, img []byte) (string, error) {
			res, err := extract.OCR(ctx, img)
			return res.Text(), err
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	step := replay.Step{Step: skills.Step{Action: "fill", Value: "Grace", ReadBack: &skills.ReadBack{Kind: "value", Expect: "Grace"},
		Floor: skills.Floor{Cursor: []int{c.X, c.Y}, ActiveWindow: "New customer", ScreenshotRef: "stub_1"}}}
	out, err := ex.Do(ctx, step)
	if err != nil || !out.OK || out.Via != replay.ViaFloor {
		t.Fatalf("fill at a point that looks as recorded = %+v, %v; want done and read back", out, err)
	}
	// A value the screen does not show fails its read-back.
	wrong := step
	wrong.ReadBack = &skills.ReadBack{Kind: "value", Expect: "Quokka"}
	if out, err := ex.Do(ctx, wrong); err != nil || out.OK || !strings.Contains(out.Error, "read-back") {
		t.Fatalf("a read-back that cannot hold = %+v, %v; want it failed", out, err)
	}
	// The form moves, its field empty again as on a fresh form: the step
	// acts where the recorded area is now.
	if err := ax.SetText(ctx, entry, ""); err != nil {
		t.Fatal(err)
	}
	win, err := a.d.Window(ctx, "New customer")
	if err != nil {
		t.Fatal(err)
	}
	// The recorded frame was taken with the pointer off the form. The
	// executor's clicks left it on the entry's old place, where after the
	// move it may hover (and GTK highlight) a widget the search compares.
	if _, err := a.d.Xdotool(ctx, "mousemove", "0", "0"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.d.Xdotool(ctx, "windowmove", "--sync", win, "60", "40"); err != nil {
		t.Fatal(err)
	}
	redrawn(ctx, t, a, ax, grab, recorded, c, win)
	moved := step
	moved.Value, moved.ReadBack = "Hopper", &skills.ReadBack{Kind: "value", Expect: "Hopper"}
	if out, err := ex.Do(ctx, moved); err != nil || !out.OK {
		t.Fatalf("fill after the window moved = %+v, %v; want it done where the field is now", out, err)
	}
	// The form leaves the screen: the recorded area is nowhere.
	if _, err := a.d.Xdotool(ctx, "windowminimize", "--sync", win); err != nil {
		t.Fatal(err)
	}
	out, err = ex.Do(ctx, step)
	if err != nil || out.OK || !strings.Contains(out.Error, "looks different") {
		t.Fatalf("fill with the recorded area gone = %+v, %v; want a refusal", out, err)
	}
}

// drawn grabs the screen once the form around entry is painted as a
// person recording would see it. The accessibility tree is ready before
// GTK's first paint and before the window manager focuses the window; a
// frame taken then shows a blank window, or one in GTK's unfocused
// "backdrop" style (grey labels, no focus ring), which no longer matches
// the form once it moves. So the frame is taken once the label left of the
// entry shows dark text on a light background.
func drawn(ctx context.Context, t *testing.T, grab *screen.X11, entry atspi.Element) image.Image {
	t.Helper()
	label := image.Rect(entry.Bounds.Min.X-80, entry.Bounds.Min.Y, entry.Bounds.Min.X, entry.Bounds.Max.Y)
	for ctx.Err() == nil {
		shot, err := grab.Grab()
		if err != nil {
			t.Fatal(err)
		}
		dark, light := false, false
		for y := label.Min.Y; y < label.Max.Y; y++ {
			for x := label.Min.X; x < label.Max.X; x++ {
				r, g, b, _ := shot.At(x, y).RGBA()
				dark, light = dark || r+g+b < 3*0x6000, light || r+g+b > 3*0xc000
			}
		}
		if dark && light { // text on the window's background, not a blank or unmapped window
			return shot
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the form's First Name label was never drawn")
	return nil
}

// redrawn waits until the form is drawn where it moved, as the step's
// look will search for it: GTK redraws a moved window late under load
// (its main loop waits on the accessibility bus), and the step is to find
// the area, not to wait out the toolkit. The window is activated first,
// as the executor does before it looks: the recorded frame shows it
// focused, and an unfocused GTK window is drawn in another style. It
// fails saying where the entry and the window are, and which window has
// the focus, when the form never shows there.
func redrawn(ctx context.Context, t *testing.T, a *app, ax *atspi.Enricher, grab *screen.X11, recorded []byte, at image.Point, win string) {
	t.Helper()
	frame, err := decodePNG(recorded)
	if err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var last image.Image
	var match patchMatch
	for wait.Err() == nil {
		_, _ = a.d.Xdotool(wait, "windowactivate", win)
		if now, err := grab.Grab(); err == nil {
			if last, match = now, matchPatch(frame, now, at); match.Clear() {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	geometry, _ := a.d.Xdotool(ctx, "search", "--name", "New customer", "getwindowgeometry", "%@")
	focused, _ := a.d.Xdotool(ctx, "getactivewindow")
	geometry += fmt.Sprintf("the focus is on window %s (the form's is %s)", strings.TrimSpace(focused), win)
	entry := "not found"
	if els, err := ax.Find(ctx, "New customer", "textbox", "First Name"); err == nil && len(els) == 1 {
		entry = els[0].Bounds.String()
	}
	t.Fatalf("the moved form was never drawn where it is in 30 s: the search's %s; entry at %s; windows:\n%s\n%s",
		match, entry, geometry, keepFrames(t, frame, last))
}

// firstName waits for the form's First Name entry on the accessibility bus.
func firstName(ctx context.Context, t *testing.T, ax *atspi.Enricher) atspi.Element {
	t.Helper()
	for ctx.Err() == nil {
		if els, _ := ax.Find(ctx, "New customer", "textbox", "First Name"); len(els) == 1 {
			return els[0]
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the First Name entry never appeared")
	return atspi.Element{}
}

// keepFrames saves a failed look's recorded frame and the screen it was
// searched on (a test form's, no person's) in a folder the test leaves,
// and says where.
func keepFrames(t *testing.T, frames ...image.Image) string {
	dir, err := os.MkdirTemp("", "reprise-look-")
	if err != nil {
		return "frames not kept: " + err.Error()
	}
	for i, img := range frames {
		if img == nil {
			continue
		}
		png, err := screen.Encode(img)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.png", i)), png, 0o600)
		}
		if err != nil {
			t.Logf("keep frame %d: %v", i, err)
		}
	}
	return "the recorded frame (0.png) and the last screen searched (1.png) are in " + dir
}
