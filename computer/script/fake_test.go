package script

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/keys"
)

// fakeDesktop is a desktop whose windows the test moves, focuses and
// closes; every listing is counted, so a test can wait on a run's first.
type fakeDesktop struct {
	mu      sync.Mutex
	windows []computer.Window // front to back
	secure  bool
	listed  int
	input   []string // what reached the desktop, in order
	values  map[string]string
}

func (d *fakeDesktop) Windows(context.Context) ([]computer.Window, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.listed++
	return slices.Clone(d.windows), nil
}

func (d *fakeDesktop) SecureInput(context.Context) (bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.secure, nil
}

func (d *fakeDesktop) set(f func(ws []computer.Window)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f(d.windows)
}

func (d *fakeDesktop) got() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.input)
}

func (d *fakeDesktop) record(format string, args ...any) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.input = append(d.input, fmt.Sprintf(format, args...))
	return nil
}

// Input, Mouse: what is sent is recorded; Activate focuses by title.
func (d *fakeDesktop) Click(x, y, b int) error       { return d.record("click %d,%d %d", x, y, b) }
func (d *fakeDesktop) Type(text string) error        { return d.record("type %s", text) }
func (d *fakeDesktop) Press(c keys.Chord) error      { return d.record("press %x", c.Key) }
func (d *fakeDesktop) Idle() (time.Duration, error)  { return 0, nil }
func (d *fakeDesktop) Close() error                  { return nil }
func (d *fakeDesktop) Move(x, y int) error           { return d.record("move %d,%d", x, y) }
func (d *fakeDesktop) Button(b int, down bool) error { return d.record("button %d %v", b, down) }
func (d *fakeDesktop) Scroll(dx, dy int) error       { return d.record("scroll %d,%d", dx, dy) }
func (d *fakeDesktop) Activate(title string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	i := slices.IndexFunc(d.windows, func(w computer.Window) bool { return w.Title == title })
	if i < 0 {
		return errors.New("no such window")
	}
	w := d.windows[i]
	for j := range d.windows {
		d.windows[j].Focused = false
	}
	w.Focused = true
	d.windows = append([]computer.Window{w}, slices.Delete(d.windows, i, i+1)...)
	return nil
}

// Grab is a white screen.
func (d *fakeDesktop) Grab() (*image.RGBA, error) {
	img := image.NewRGBA(image.Rect(0, 0, 800, 600))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	return img, nil
}

// Tree: a form of two fields and a button in the window titled "Form".
func (d *fakeDesktop) List(_ context.Context, window string, _ int) ([]ax.Node, error) {
	if window != "Form" {
		return nil, nil
	}
	n := func(role, name string, parent int, box image.Rectangle, pw bool) ax.Node {
		return ax.Node{Element: ax.Element{Role: role, Handle: name}, Name: name, Parent: parent, Label: -1, Window: "Form", App: "form", Bounds: box, Password: pw}
	}
	return []ax.Node{
		n("panel", "", -1, image.Rect(100, 100, 400, 300), false),
		func() ax.Node {
			f := n("textbox", "Name", 0, image.Rect(120, 120, 300, 140), false)
			f.Focused = true
			return f
		}(),
		n("textbox", "Secret", 0, image.Rect(120, 150, 300, 170), true),
		n("button", "Save", 0, image.Rect(120, 200, 200, 230), false),
	}, nil
}

func (d *fakeDesktop) Find(context.Context, string, string, string) ([]ax.Element, error) {
	return nil, nil
}

func (d *fakeDesktop) Fill(_ context.Context, el ax.Element, text string) error {
	d.mu.Lock()
	if d.values == nil {
		d.values = map[string]string{}
	}
	d.values[el.Handle.(string)] = text
	d.mu.Unlock()
	return d.record("fill %s", el.Handle)
}

func (d *fakeDesktop) Text(_ context.Context, el ax.Element) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.values[el.Handle.(string)], nil
}

func (d *fakeDesktop) axPress(el ax.Element) error {
	return d.record("ax-press %s", el.Handle)
}

// fakeClipboard holds text; every read is told on read, if set, so a
// test can wait on a run reaching a point.
type fakeClipboard struct {
	text  string
	read  chan struct{}
	owner int // the pid whose copy it holds
}

func (c *fakeClipboard) Owner(context.Context) (int, error) { return c.owner, nil }

func (c *fakeClipboard) Read(context.Context) (string, error) {
	if c.read != nil {
		c.read <- struct{}{}
	}
	return c.text, nil
}
func (c *fakeClipboard) Write(_ context.Context, t string) error { c.text = t; return nil }

// fixture is a runtime over the fake desktop with a grant on "Form".
type fixture struct {
	d     *fakeDesktop
	b     *computer.Broker
	r     *Runtime
	grant computer.Grant
	clip  *fakeClipboard
	shots string
	plat  Platform
}

// axTree adapts fakeDesktop to Tree: its Press is the tree's, not the
// keyboard's.
type axTree struct{ d *fakeDesktop }

func (t axTree) Find(ctx context.Context, w, r, l string) ([]ax.Element, error) {
	return t.d.Find(ctx, w, r, l)
}
func (t axTree) Fill(ctx context.Context, el ax.Element, s string) error {
	return t.d.Fill(ctx, el, s)
}
func (t axTree) Text(ctx context.Context, el ax.Element) (string, error) { return t.d.Text(ctx, el) }
func (t axTree) Press(_ context.Context, el ax.Element) error            { return t.d.axPress(el) }
func (t axTree) List(ctx context.Context, w string, n int) ([]ax.Node, error) {
	return t.d.List(ctx, w, n)
}

func newFixture(t *testing.T, req computer.GrantRequest) *fixture {
	t.Helper()
	d := &fakeDesktop{windows: []computer.Window{
		{ID: "0x1", App: "form", Title: "Form", PID: 10, Bounds: image.Rect(100, 100, 400, 300), Focused: true},
		{ID: "0x2", App: "notes", Title: "Notes", PID: 11, Bounds: image.Rect(350, 250, 700, 500)},
	}}
	b := computer.NewBroker(d, computer.Policy{}, nil, nil)
	if req.TargetID == "" {
		req.TargetID = "0x1"
	}
	if req.Capture == "" {
		req.Capture = computer.CapturePixels
	}
	g, _, err := b.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{d: d, b: b, grant: g, clip: &fakeClipboard{text: "copied", owner: 10}, shots: t.TempDir()}
	plat := Platform{Backend: "fake", Input: d, Screen: d, Tree: axTree{d}, Clipboard: f.clip,
		Displays: func() ([]image.Rectangle, error) { return []image.Rectangle{image.Rect(0, 0, 800, 600)}, nil }}
	f.plat = plat
	f.r = New(b, g.ID, plat, f.shots)
	return f
}

// run runs code and returns its return value, failing the test on error.
func (f *fixture) run(t *testing.T, code string) string {
	t.Helper()
	res, err := f.r.Run(context.Background(), code, Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("run %q: %v", code, err)
	}
	return res.Return
}

// fails runs code and returns the *Error it failed with.
func (f *fixture) fails(t *testing.T, code string, opts Options) *Error {
	t.Helper()
	_, err := f.r.Run(context.Background(), code, opts)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("run %q: %v; want a script error", code, err)
	}
	return e
}

var white = color.RGBA{0xff, 0xff, 0xff, 0xff}
