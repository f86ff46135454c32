package desktop

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// TestTwoReplaysContendUnderXvfb: two replays, each with its own X input
// connection, type into two fields of one form at once, by clicking each
// field and typing. The lease makes each click-and-type whole: one waits
// for the other, and each field holds exactly its own text (without it,
// one replay's keys land in the field the other clicked).
func TestTwoReplaysContendUnderXvfb(t *testing.T) {
	a := startForm(t)
	tree, err := atspi.New(atspi.Options{Display: a.d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first := firstName(ctx, t, tree)
	var email atspi.Element
	for ctx.Err() == nil {
		if els, _ := tree.Find(ctx, "New customer", "textbox", "Email"); len(els) == 1 {
			email = els[0]
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	path := filepath.Join(t.TempDir(), "desktop.lock")
	var waits atomic.Int32
	replayer := func(name string) *Executor {
		in, err := input.NewX11(a.d.Display)
		if err != nil {
			t.Fatal(err)
		}
		lease := LeaseAt(path, name)
		lease.Waiting = func(string) { waits.Add(1) }
		// The other replay's input is not a person's: no idle wait here.
		ex, err := New(Options{Input: in, Quiet: -1, Lease: lease})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ex.Close() })
		return ex
	}
	fill := func(el atspi.Element, value string) replay.Step {
		c := el.Bounds.Min.Add(el.Bounds.Max).Div(2)
		return replay.Step{Step: skills.Step{Action: "fill", Value: value, Floor: skills.Floor{Cursor: []int{c.X, c.Y}, ActiveWindow: "New customer"}}}
	}
	jobs := []struct {
		ex *Executor
		st replay.Step
	}{
		{replayer("run A"), fill(first, "Adaline Augusta Byron")},
		{replayer("run B"), fill(email, "ada.lovelace@example.org")},
	}
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() {
			if out, err := j.ex.Do(ctx, j.st); err != nil || !out.OK {
				t.Errorf("fill %q: %+v, %v", j.st.Value, out, err)
			}
		})
	}
	wg.Wait()
	if waits.Load() != 1 {
		t.Errorf("%d replays waited for the desktop; want one", waits.Load())
	}
	for _, f := range []struct {
		el   atspi.Element
		want string
	}{{first, "Adaline Augusta Byron"}, {email, "ada.lovelace@example.org"}} {
		got := ""
		for deadline := time.Now().Add(5 * time.Second); got != f.want && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			got, _ = tree.Text(ctx, f.el)
		}
		if got != f.want {
			t.Errorf("a field holds %q; want %q", got, f.want)
		}
	}
}
