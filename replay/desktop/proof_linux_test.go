package desktop

import (
	"bufio"
	"context"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/platform/keys"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// customer is testdata/customer_gtk.py running on a desktop: what it
// printed, and the file its Save appends records to.
type customer struct {
	out     *syncbuf.Buffer
	records string
	stop    func()
}

// startCustomer starts the GTK form in layout ("v1" or "v2") on d and
// waits until its window is mapped.
func startCustomer(t *testing.T, d *xvfb.Desktop, layout, records string) *customer {
	t.Helper()
	if err := exec.Command("/usr/bin/python3", "-c", "import gi; gi.require_version('Gtk', '3.0')").Run(); err != nil {
		t.Fatalf("python3-gi with GTK 3 is not installed: run scripts/deps (gir1.2-gtk-3.0 python3-gi): %v", err)
	}
	cmd := exec.Command("/usr/bin/python3", "testdata/customer_gtk.py", layout, records)
	cmd.Env = d.Env()
	c := &customer{out: &syncbuf.Buffer{}, records: records}
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready, exited := make(chan struct{}), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if sc.Text() == "ready" {
				close(ready)
				continue
			}
			c.out.Write([]byte(sc.Text() + "\n"))
		}
		_ = cmd.Wait()
		close(exited)
	}()
	var once sync.Once
	c.stop = func() { once.Do(func() { _ = cmd.Process.Kill(); <-exited }) }
	t.Cleanup(c.stop)
	select {
	case <-ready:
	case <-exited:
		t.Fatalf("the form exited before it was ready: %s", stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatalf("the form was not ready in 20 s: %s", stderr.String())
	}
	return c
}

// countingInput counts every input it passes on.
type countingInput struct {
	input.Input
	mu            sync.Mutex
	clicks, typed int
}

func (c *countingInput) Click(x, y, b int) error {
	c.mu.Lock()
	c.clicks++
	c.mu.Unlock()
	return c.Input.Click(x, y, b)
}

func (c *countingInput) Type(s string) error {
	c.mu.Lock()
	c.typed++
	c.mu.Unlock()
	return c.Input.Type(s)
}

func (c *countingInput) Press(k keys.Chord) error {
	c.mu.Lock()
	c.typed++
	c.mu.Unlock()
	return c.Input.Press(k)
}

func (c *countingInput) sent() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clicks + c.typed
}

// pointOnly is the real tree with its search by role and label turned
// off: every step goes to its recorded point, where the tree still says
// what is there.
type pointOnly struct{ ax.ATSPI }

func (pointOnly) Find(context.Context, string, string, string) ([]ax.Element, error) { return nil, nil }

// element waits for the one element of role and label in the Customer
// window.
func element(ctx context.Context, t *testing.T, tree *atspi.Enricher, role, label string) atspi.Element {
	t.Helper()
	for ctx.Err() == nil {
		if els, _ := tree.Find(ctx, "Customer", role, label); len(els) == 1 {
			return els[0]
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no %s %q in the form", role, label)
	return atspi.Element{}
}

func centre(el atspi.Element) image.Point { return el.Bounds.Min.Add(el.Bounds.Max).Div(2) }

// TestRecordedPointIsProvedUnderXvfb: input goes to a recorded point only
// when the accessibility tree says the element there is the step's. On
// the form as recorded, a fill at the Email field's point is proved and
// typed. On the redesigned form (a Country combo where Email was, Email
// moved and relabelled, Save renamed Store at the same place), with ai:
// never, the fill and the destructive click both miss: no click and no
// key is sent, no field changes, no record is filed, and each error names
// what was expected and what is there.
func TestRecordedPointIsProvedUnderXvfb(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	records := filepath.Join(t.TempDir(), "records.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tree, err := atspi.New(atspi.Options{Display: d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	newEx := func() (*Executor, *countingInput) {
		x, err := input.NewX11(d.Display)
		if err != nil {
			t.Fatal(err)
		}
		in := &countingInput{Input: x}
		ex, err := New(Options{Input: in, AX: pointOnly{ax.ATSPI{Enricher: tree}}, Quiet: 100 * time.Millisecond, FindTimeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ex.Close() })
		return ex, in
	}
	window := "Customer"

	// As recorded: where Email and Save are, and a fill there proved.
	v1 := startCustomer(t, d, "v1", records)
	email := element(ctx, t, tree, "textbox", "Email")
	save := element(ctx, t, tree, "button", "Save")
	fill := replay.Step{Row: 1, Index: 2, Step: skills.Step{Action: "fill", Role: "textbox", Label: "Email", Value: "ada@example.org", AI: "never",
		Floor: skills.Floor{Cursor: []int{centre(email).X, centre(email).Y}, ActiveWindow: window}}}
	click := replay.Step{Row: 1, Index: 3, Last: true, Step: skills.Step{Action: "click", Role: "button", Label: "Save", Destructive: true, AI: "never",
		Floor: skills.Floor{Cursor: []int{centre(save).X, centre(save).Y}, ActiveWindow: window}}}
	ex, in := newEx()
	out, err := ex.Do(ctx, fill)
	if err != nil || !out.OK || out.Via != replay.ViaFloor || len(out.Notes) != 0 {
		t.Fatalf("fill at the Email field's recorded point = %+v, %v; want done at the point, proved", out, err)
	}
	got := ""
	for deadline := time.Now().Add(5 * time.Second); got != "ada@example.org" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		got, _ = tree.Text(ctx, email)
	}
	if got != "ada@example.org" || in.sent() == 0 {
		t.Fatalf("the Email field holds %q after %d inputs; want the value typed", got, in.sent())
	}
	v1.stop()

	// Redesigned: nothing is sent to either point.
	v2 := startCustomer(t, d, "v2", records)
	element(ctx, t, tree, "combobox", "Country")
	ex, in = newEx()
	for _, c := range []struct {
		st          replay.Step
		want, there string
	}{
		{fill, `expected textbox "Email"`, `combobox "Country"`},
		{click, `expected button "Save"`, `button "Store"`},
	} {
		out, err := ex.Do(ctx, c.st)
		if err != nil || out.OK || !out.Missed || !out.Watched || out.Sent {
			t.Fatalf("step %d on the redesigned form = %+v, %v; want a miss, nothing sent", c.st.Index+1, out, err)
		}
		t.Logf("step %d: %s", c.st.Index+1, out.Error)
		if !strings.Contains(out.Error, c.want) || !strings.Contains(out.Error, c.there) || strings.Contains(out.Error, "ada@") {
			t.Errorf("step %d's error %q; want it to name %s and %s, and no value", c.st.Index+1, out.Error, c.want, c.there)
		}
		if c.st.Destructive && !out.NotFiled() {
			t.Errorf("the destructive step's outcome %+v does not prove it filed nothing", out)
		}
	}
	if n := in.sent(); n != 0 {
		t.Fatalf("%d clicks and keys were sent to the redesigned form; want none", n)
	}
	// The app agrees: no button pressed, no popup, no record, every
	// field empty.
	nodes, err := tree.List(ctx, window, maxNodes)
	if err != nil {
		t.Fatal(err)
	}
	fields := 0
	for _, n := range nodes {
		if n.Role == "textbox" {
			fields++
			if n.Value != "" {
				t.Errorf("the field %q holds %q; want it untouched", n.Name, n.Value)
			}
		}
	}
	if fields != 3 {
		t.Errorf("%d fields on the redesigned form; want 3", fields)
	}
	if b, _ := os.ReadFile(records); len(b) != 0 {
		t.Errorf("records filed: %q", b)
	}
	if s := v2.out.String(); s != "" {
		t.Errorf("the form saw input: %q", s)
	}
}
