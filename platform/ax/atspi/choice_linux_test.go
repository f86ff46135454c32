package atspi

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
)

// startChoices starts replay/desktop's GTK order form (a combo box, a
// list box, a check box) on its own desktop and returns an Enricher once
// the form is mapped.
func startChoices(t *testing.T) (*xvfb.Desktop, *Enricher) {
	t.Helper()
	d := xvfb.Start(t)
	activateA11yBus(t, d.Display)
	cmd := exec.Command("/usr/bin/python3", filepath.Join("..", "..", "..", "replay", "desktop", "testdata", "choices_gtk.py"), filepath.Join(t.TempDir(), "records.jsonl"))
	cmd.Env = d.Env()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the GTK form (python3-gi, gir1.2-gtk-3.0: run scripts/deps): %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "ready" {
				ready <- true
			}
		}
		close(ready)
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("the GTK form exited before it was ready")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the GTK form was not ready in 20 s")
	}
	e, err := New(Options{Display: d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return d, e
}

// one waits for exactly one element of role and label in window.
func one(t *testing.T, e *Enricher, window, role, label string) Element {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		els, err := e.Find(ctx, window, role, label)
		if err == nil && len(els) == 1 {
			return els[0]
		}
		if ctx.Err() != nil {
			t.Fatalf("Find(%q, %q, %q) = %d elements, %v; want 1", window, role, label, len(els), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func click(t *testing.T, d *xvfb.Desktop, el Element) {
	t.Helper()
	x, y := centre(el)
	if _, err := d.Xdotool(context.Background(), "mousemove", fmt.Sprint(x), fmt.Sprint(y), "click", "1"); err != nil {
		t.Fatal(err)
	}
}

// TestChoicesUnderXvfb reads and sets a GTK combo box, list box and check
// box as the recorder and the replay do: what a press there names, the
// options, the selection, the checked state.
func TestChoicesUnderXvfb(t *testing.T) {
	d, e := startChoices(t)
	ctx := context.Background()
	countries := []string{"France", "Germany", "Italy", "Spain", "Côte d'Ivoire"}

	combo := one(t, e, "Order", "combobox", "Country")
	x, y := centre(combo)
	ch, err := e.ChoiceAt(ctx, x, y)
	if err != nil || ch == nil || ch.Kind != ChoiceCombo || ch.Control.Label != "Country" || ch.Picked != "" || !slices.Equal(ch.Options, countries) {
		t.Fatalf("ChoiceAt(combo box) = %+v, %v; want the combo Country, its five options, nothing picked", ch, err)
	}

	// A person opens the combo box and picks Germany in its popup: the
	// press there names the combo box and the option.
	click(t, d, combo)
	item := one(t, e, "", "menuitem", "Germany")
	x, y = centre(item)
	ch, err = e.ChoiceAt(ctx, x, y)
	if err != nil || ch == nil || ch.Kind != ChoiceCombo || ch.Control.Label != "Country" || ch.Picked != "Germany" || ch.Control.AXPath != combo.AXPath {
		t.Fatalf("ChoiceAt(option in the popup) = %+v, %v; want the combo Country (path %q), Germany picked", ch, err, combo.AXPath)
	}
	click(t, d, item)
	waitChoice(t, e, combo, func(c *Choice) bool { return c.Selected == "Germany" })
	// Chosen, the combo box is still found by its label, not its text.
	combo = one(t, e, "Order", "combobox", "Country")

	row := one(t, e, "Order", "label", "Standard")
	x, y = centre(row)
	ch, err = e.ChoiceAt(ctx, x, y)
	if err != nil || ch == nil || ch.Kind != ChoiceList || ch.Control.Label != "Plan" || ch.Picked != "Standard" || !slices.Equal(ch.Options, []string{"Basic", "Standard", "Premium"}) {
		t.Fatalf("ChoiceAt(list item) = %+v, %v; want the list Plan, Standard picked", ch, err)
	}

	box := one(t, e, "Order", "checkbox", "Newsletter")
	x, y = centre(box)
	ch, err = e.ChoiceAt(ctx, x, y)
	if err != nil || ch == nil || ch.Kind != ChoiceCheck || ch.Checked {
		t.Fatalf("ChoiceAt(check box) = %+v, %v; want an unchecked box", ch, err)
	}
	click(t, d, box)
	waitChoice(t, e, box, func(c *Choice) bool { return c.Checked })

	// Replay's side: set through the Selection interface, read back.
	if err := e.Choose(ctx, combo, "Côte d'Ivoire"); err != nil {
		t.Fatalf("Choose(combo, Côte d'Ivoire): %v", err)
	}
	waitChoice(t, e, combo, func(c *Choice) bool { return c.Selected == "Côte d'Ivoire" })
	list := one(t, e, "Order", "listbox", "Plan")
	if err := e.Choose(ctx, list, "Premium"); err != nil {
		t.Fatalf("Choose(list, Premium): %v", err)
	}
	waitChoice(t, e, list, func(c *Choice) bool { return c.Selected == "Premium" })
	if err := e.Choose(ctx, combo, "Atlantis"); !errors.Is(err, ErrNoSuchOption) {
		t.Errorf("Choose(combo, Atlantis) = %v; want ErrNoSuchOption", err)
	}
	// The combo box's popup way, for a toolkit without Selection.
	if err := e.pressOption(ctx, combo, 2, "Italy"); err != nil {
		t.Fatalf("pressOption(combo, 2, Italy): %v", err)
	}
	waitChoice(t, e, combo, func(c *Choice) bool { return c.Selected == "Italy" })
}

func waitChoice(t *testing.T, e *Enricher, el Element, ok func(*Choice) bool) {
	t.Helper()
	var last *Choice
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ch, err := e.ReadChoice(context.Background(), el)
		if err == nil && ok(ch) {
			return
		}
		last = ch
	}
	t.Fatalf("the %s %q never held what was set: last read %+v", el.Role, el.Label, last)
}
