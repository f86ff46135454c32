package desktop

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// startOrders starts testdata/choices_gtk.py, refusing the country
// refuse, and waits until its window is mapped; it returns its records
// file.
func startOrders(t *testing.T, d *xvfb.Desktop, refuse string) string {
	t.Helper()
	records := filepath.Join(t.TempDir(), "orders.jsonl")
	cmd := exec.Command("/usr/bin/python3", "testdata/choices_gtk.py", records, refuse)
	cmd.Env = d.Env()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
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
			t.Fatal("the form exited before it was ready (python3-gi: run scripts/deps)")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the form was not ready in 20 s")
	}
	return records
}

// TestChoicesReplayedAndReadBackUnderXvfb: a combo box, a list box and a
// check box of a real GTK form are set through AT-SPI and read back; an
// app that puts the combo box back (it refuses Italy) fails the step
// before anything is saved, and a box already in the row's state is not
// clicked.
func TestChoicesReplayedAndReadBackUnderXvfb(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	records := startOrders(t, d, "Italy")
	ex := newExecutor(t, d, true, 10*time.Second)
	ctx := context.Background()
	step := func(i int, action, role, label, value string, rb string) replay.Step {
		st := replay.Step{Row: 1, Index: i, Step: skills.Step{Action: action, Role: role, Label: label, Value: value,
			Floor: skills.Floor{ActiveWindow: "Order", Cursor: []int{1, 1}}}, Filled: []string{value}}
		if rb != "" {
			st.ReadBack = &skills.ReadBack{Kind: rb, Expect: value}
		}
		return st
	}
	for _, tc := range []struct {
		st  replay.Step
		ok  bool
		err string
	}{
		{step(0, "select", "combobox", "Country", "Germany", skills.ReadBackSelected), true, ""},
		{step(1, "select", "listbox", "Plan", "Premium", skills.ReadBackSelected), true, ""},
		{step(2, "click", "checkbox", "Newsletter", "true", skills.ReadBackChecked), true, ""},
		{step(3, "click", "checkbox", "Newsletter", "true", skills.ReadBackChecked), true, ""}, // already ticked: left alone
		{step(4, "select", "combobox", "Country", "Italy", skills.ReadBackSelected), false, "read-back"},
		{step(5, "select", "combobox", "Country", "Atlantis", skills.ReadBackSelected), false, "no option"},
	} {
		out, err := ex.Do(ctx, tc.st)
		if err != nil {
			t.Fatalf("step %d: %v", tc.st.Index+1, err)
		}
		if out.OK != tc.ok || !strings.Contains(out.Error, tc.err) {
			t.Fatalf("step %d (%s %s %s) = %+v; want OK %v, error with %q", tc.st.Index+1, tc.st.Action, tc.st.Label, tc.st.Value, out, tc.ok, tc.err)
		}
		if !tc.ok && (strings.Contains(out.Error, "Italy") || strings.Contains(out.Error, "Atlantis")) {
			t.Errorf("step %d's error quotes the row's value: %s", tc.st.Index+1, out.Error)
		}
	}
	// What the form holds: Germany (Italy refused), Premium, the box
	// ticked once.
	chooser := ex.o.AX.(ax.Chooser)
	for _, want := range []struct{ role, label, selected string }{{"combobox", "Country", "Germany"}, {"listbox", "Plan", "Premium"}, {"checkbox", "Newsletter", ""}} {
		els, err := ex.o.AX.Find(ctx, "Order", want.role, want.label)
		if err != nil || len(els) != 1 {
			t.Fatalf("Find(%s %s) = %d, %v", want.role, want.label, len(els), err)
		}
		c, err := chooser.Choice(ctx, els[0])
		if err != nil || c.Selected != want.selected || c.Checkable && !c.Checked {
			t.Errorf("the form's %s holds %+v, %v; want %q (a box checked)", want.label, c, err, want.selected)
		}
	}
	if b, _ := os.ReadFile(records); len(b) != 0 {
		t.Fatalf("something was saved: %s", b)
	}
}
