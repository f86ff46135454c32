package desktop

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// TestTwoReplaysContendUnderXvfb: two replays, each with its own X input
// connection and its own hold of the display's lease (the X selection),
// type into two fields of one form at once, by clicking each
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
	var waits atomic.Int32
	replayer := func(name string) *Executor {
		in, err := input.NewX11(a.d.Display)
		if err != nil {
			t.Fatal(err)
		}
		lease, err := NewLease(a.d.Display, name)
		if err != nil {
			t.Fatal(err)
		}
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
		return replay.Step{Last: true, Step: skills.Step{Action: "fill", Value: value, Floor: skills.Floor{Cursor: []int{c.X, c.Y}, ActiveWindow: "New customer"}}}
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

// TestDisplayLeaseAcrossProcessesUnderXvfb: the display's lease (an X
// selection) held by another process is waited for, naming that holder,
// and is let go by a release or when the holder is killed (SIGKILL): the
// X server drops the selection with the holder's connection.
func TestDisplayLeaseAcrossProcessesUnderXvfb(t *testing.T) {
	if display := os.Getenv("REPRISE_TEST_DISPLAY_LEASE"); display != "" {
		lease, err := NewLease(display, fmt.Sprintf("pid %d", os.Getpid()))
		if err != nil {
			os.Exit(2)
		}
		release, err := lease.Hold(context.Background())
		if err != nil {
			os.Exit(3)
		}
		fmt.Println("held")
		_, _ = io.Copy(io.Discard, os.Stdin) // until the test closes it, or kills us
		release()
		os.Exit(0)
	}
	d := xvfb.Start(t)
	holder := func() (*exec.Cmd, io.WriteCloser) {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestDisplayLeaseAcrossProcessesUnderXvfb$")
		cmd.Env = append(os.Environ(), "REPRISE_TEST_DISPLAY_LEASE="+d.Display)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "held\n" {
			t.Fatalf("the holder said %q, %v", line, err)
		}
		return cmd, stdin
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, end := range []string{"release", "SIGKILL"} {
		cmd, stdin := holder()
		lease, err := NewLease(d.Display, "this test")
		if err != nil {
			t.Fatal(err)
		}
		waited := make(chan string, 1)
		lease.Waiting = func(h string) {
			waited <- h
			if end == "release" {
				stdin.Close()
			} else {
				_ = cmd.Process.Kill()
			}
		}
		release, err := lease.Hold(ctx)
		if err != nil {
			t.Fatalf("%s: %v", end, err)
		}
		if h := <-waited; h != fmt.Sprintf("pid %d", cmd.Process.Pid) {
			t.Errorf("%s: waited on %q", end, h)
		}
		// Held now: a third holder is refused until the release.
		third, err := lease.lock.open("a third")
		if err != nil {
			t.Fatal(err)
		}
		_, holder, err := third.try()
		third.close()
		if err == nil || holder != "this test" {
			t.Errorf("%s: a third take while held = %q, %v; want refused, naming this test", end, holder, err)
		}
		release()
		release() // twice is harmless
		_ = cmd.Wait()
	}
	// Released: taken at once.
	lease, _ := NewLease(d.Display, "last")
	release, err := lease.Hold(ctx)
	if err != nil {
		t.Fatal(err)
	}
	release()
}
