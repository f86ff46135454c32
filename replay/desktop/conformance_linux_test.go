package desktop

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/selector/selectortest"
	"github.com/reprise-dev/reprise/skills"
)

// gtkForm is selectortest's GTK form, with its accessibility tree.
type gtkForm struct{ *selectortest.GTKForm }

func startGTKForm(t *testing.T) gtkForm { return gtkForm{selectortest.StartGTK(t)} }

// lister is AT-SPI on the form's desktop, once the form is on the bus.
func (f gtkForm) lister(t *testing.T) ax.ATSPI {
	t.Helper()
	e, err := atspi.New(atspi.Options{Display: f.Desktop.Display, Timeout: 5 * time.Second})
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
	if !f.IDs {
		t.Log("this ATK gives no accessible ids: the id cases skip")
	}
	selectortest.Run(t, resolver{l}, f.IDs)

	ex := newExecutor(t, f.Desktop, true, 5*time.Second)
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
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(f.Lines.String(), "pressed Save Shipping\n"); {
			if time.Now().After(deadline) {
				t.Fatalf("the form printed %q; want pressed Save Shipping", f.Lines.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
		if strings.Contains(f.Lines.String(), "Billing") {
			t.Errorf("the form printed %q: the Billing Save was pressed too", f.Lines.String())
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
