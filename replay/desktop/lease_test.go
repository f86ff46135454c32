package desktop

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// TestLeaseOneReplayAtATime: while another replay holds the desktop, a
// step that sends input waits, says so with the holder's note, and sends
// nothing; once the lease is let go it runs. A check does not wait.
func TestLeaseOneReplayAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "desktop.lock")
	other, err := LeaseAt(path, "run A, pid 1").Hold(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan string, 1)
	lease := LeaseAt(path, "run B, pid 2")
	lease.Waiting = func(holder string) { waiting <- holder }
	in := &personInput{}
	ex, err := New(Options{Input: in, Quiet: time.Millisecond, Lease: lease})
	if err != nil {
		t.Fatal(err)
	}
	// A check runs beside the other replay.
	if out, err := ex.Do(context.Background(), replay.Step{Step: skills.Step{Action: "wait", Wait: &skills.Condition{}}}); err != nil || !out.OK {
		t.Fatalf("a wait step while the desktop is held = %+v, %v", out, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ex.Do(context.Background(), replay.Step{Last: true, Step: skills.Step{Action: "click", Floor: skills.Floor{Cursor: []int{10, 10}}}})
		done <- err
	}()
	if holder := <-waiting; holder != "run A, pid 1" {
		t.Errorf("waiting on %q; want the holder's note", holder)
	}
	in.mu.Lock()
	sent := len(in.clicks)
	in.mu.Unlock()
	if sent != 0 {
		t.Fatal("a click was sent while another replay held the desktop")
	}
	other()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(in.clicks) != 1 {
		t.Fatalf("%d clicks once the desktop was free; want 1", len(in.clicks))
	}
	// Released after the row's last step: the other replay takes it at
	// once.
	again, err := LeaseAt(path, "run A").Hold(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// A wait ends with the context, naming the lease.
	ctx, cancel := context.WithCancel(context.Background())
	lease.Waiting = func(string) { cancel() }
	if _, err := ex.Do(ctx, replay.Step{Step: skills.Step{Action: "click", Floor: skills.Floor{Cursor: []int{1, 1}}}}); !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled wait = %v; want context.Canceled", err)
	}
	again()
}

// TestLeaseAcrossProcesses: the lease another process holds is waited
// for, and a holder that dies (SIGKILL) lets it go: the OS releases the
// lock, so a crash never leaves the desktop held.
func TestLeaseAcrossProcesses(t *testing.T) {
	if path := os.Getenv("REPRISE_TEST_LEASE_HOLDER"); path != "" {
		release, err := LeaseAt(path, fmt.Sprintf("pid %d", os.Getpid())).Hold(context.Background())
		if err != nil {
			os.Exit(2)
		}
		fmt.Println("held")
		_, _ = io.Copy(io.Discard, os.Stdin) // until the test closes it, or kills us
		release()
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "desktop.lock")
	holder := func() (*exec.Cmd, io.WriteCloser) {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestLeaseAcrossProcesses$")
		cmd.Env = append(os.Environ(), "REPRISE_TEST_LEASE_HOLDER="+path)
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
	for _, end := range []string{"release", "SIGKILL"} {
		cmd, stdin := holder()
		lease := LeaseAt(path, "this test")
		waited := make(chan string, 1)
		lease.Waiting = func(h string) {
			waited <- h
			if end == "release" {
				stdin.Close()
			} else {
				_ = cmd.Process.Kill()
			}
		}
		release, err := lease.Hold(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", end, err)
		}
		if h := <-waited; h != fmt.Sprintf("pid %d", cmd.Process.Pid) {
			t.Errorf("%s: waited on %q", end, h)
		}
		release()
		_ = cmd.Wait()
	}
}
