package desktop

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/selector/selectortest"
	"github.com/reprise-dev/reprise/skills"
)

// gtkForm is selectortest's form in GTK 3 on a desktop of its own, and
// the lines it printed ("pressed Save Shipping").
type gtkForm struct {
	d     *xvfb.Desktop
	lines *syncbuf.Buffer
	// ids is whether this ATK can give Cancel its accessible id.
	ids bool
}

func startGTKForm(t *testing.T) *gtkForm {
	t.Helper()
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	if err := exec.Command("/usr/bin/python3", "-c", "import gi; gi.require_version('Gtk', '3.0')").Run(); err != nil {
		t.Fatalf("python3-gi with GTK 3 is not installed: run scripts/deps (gir1.2-gtk-3.0 python3-gi): %v", err)
	}
	d.StartA11yBus(t)
	cmd := exec.Command("/usr/bin/python3", "../../selector/selectortest/testdata/form_gtk.py")
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
	f := &gtkForm{d: d, lines: &syncbuf.Buffer{}, ids: true}
	ready, exited := make(chan struct{}), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			switch sc.Text() {
			case "ready":
				close(ready)
			case "no accessible ids":
				f.ids = false // written before "ready"
			default:
				f.lines.Write([]byte(sc.Text() + "\n"))
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

// lister is AT-SPI on the form's desktop, once the form is on the bus.
func (f *gtkForm) lister(t *testing.T) ax.ATSPI {
	t.Helper()
	e, err := atspi.New(atspi.Options{Display: f.d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	l := ax.ATSPI{Enricher: e}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		// The window is drawn before its application is on the registry.
		if nodes, _ := l.List(ctx, selectortest.Title, 100); len(nodes) > 20 {
			return l
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the form never appeared on the accessibility bus")
	return l
}

// resolver is the desktop executor's resolution as the suite calls it.
type resolver struct{ l ax.Lister }

func (r resolver) Resolve(ctx context.Context, s selector.Selector) (selector.Tree, int, error) {
	_, tree, i, err := Resolve(ctx, r.l, selectortest.Title, s)
	return tree, i, err
}

// TestSelectorConformanceGTK runs the selector suite on the GTK form
// through AT-SPI, then acts on what a target resolves to: the Shipping
// form's Save pressed (the app says which button it was) and the Billing
// City field filled and read back, both through the executor.
func TestSelectorConformanceGTK(t *testing.T) {
	f := startGTKForm(t)
	l := f.lister(t)
	if !f.ids {
		t.Log("this ATK gives no accessible ids: the id cases skip")
	}
	selectortest.Run(t, resolver{l}, f.ids)

	ex := newExecutor(t, f.d, true, 5*time.Second)
	ctx := context.Background()
	window := skills.Floor{ActiveWindow: selectortest.Title}

	t.Run("press the target", func(t *testing.T) {
		// Role and label alone name both Save buttons: only the target
		// tells them apart.
		st := replay.Step{Step: skills.Step{Action: "click", Role: "button", Label: "Save", Floor: window,
			Target: parse(t, `{"role":"button","name":"Save","in":{"role":"group","name":"Shipping"}}`)}}
		out, err := ex.Do(ctx, st)
		if err != nil || !out.OK || out.Via != replay.ViaTarget || len(out.Tried) != 1 || out.Tried[0] != (replay.Attempt{Strategy: "target", Matches: 1}) {
			t.Fatalf("Do(click Save in Shipping) = %+v, %v; want done through the target", out, err)
		}
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(f.lines.String(), "pressed Save Shipping\n"); {
			if time.Now().After(deadline) {
				t.Fatalf("the form printed %q; want pressed Save Shipping", f.lines.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
		if strings.Contains(f.lines.String(), "Billing") {
			t.Errorf("the form printed %q: the Billing Save was pressed too", f.lines.String())
		}
	})

	t.Run("fill the target", func(t *testing.T) {
		city := parse(t, `{"role":"text_field","near":{"label":"City","side":"right"},"in":{"role":"group","name":"Billing"}}`)
		st := replay.Step{Step: skills.Step{Action: "fill", Role: "textbox", Value: "Lyon", Floor: window, Target: city,
			ReadBack: &skills.ReadBack{Kind: "value", Expect: "Lyon"}}}
		out, err := ex.Do(ctx, st)
		if err != nil || !out.OK || out.Via != replay.ViaTarget || len(out.Tried) == 0 || out.Tried[0].Strategy != "target" {
			t.Fatalf("Do(fill City in Billing) = %+v, %v; want done through the target", out, err)
		}
		nodes, _, i, err := Resolve(ctx, l, selectortest.Title, *city)
		if err != nil || nodes[i].Value != "Lyon" {
			t.Fatalf("the Billing City field, read again = %+v, %v; want Lyon", nodes[i], err)
		}
		if got, _ := l.Text(ctx, nodes[i].Element); got != "Lyon" {
			t.Errorf("Text(Billing City) = %q; want Lyon", got)
		}
	})
}

func parse(t *testing.T, js string) *selector.Selector {
	t.Helper()
	s, err := selector.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
