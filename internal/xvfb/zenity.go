package xvfb

import (
	"context"
	"io"
	"os/exec"
	"testing"
	"time"
)

// Zenity starts zenity with args on the desktop (its output to stdout,
// when not nil), kills it when the test ends, and returns it with the id
// of its window (the one titled by --title, else by the last argument)
// once that is visible.
func (d *Desktop) Zenity(t testing.TB, stdout io.Writer, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command("zenity", args...)
	cmd.Env, cmd.Stdout = d.Env(), stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("zenity is not installed? run scripts/deps: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-done })
	title := args[len(args)-1]
	for i, a := range args[:len(args)-1] {
		if a == "--title" {
			title = args[i+1]
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	id, err := d.Window(ctx, title)
	if err != nil {
		t.Fatal(err)
	}
	return cmd, id
}
