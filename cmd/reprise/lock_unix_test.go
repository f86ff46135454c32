//go:build !windows

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/reprise-dev/reprise/daemon"
)

// TestSecondDaemonRefusedWhileFirstIsStopped: a daemon stopped with
// SIGSTOP answers nothing and its client.json may be gone, yet it still
// holds the store; a second daemon must not open it.
func TestSecondDaemonRefusedWhileFirstIsStopped(t *testing.T) {
	home := t.TempDir()
	first := startDaemonProcess(t, home)
	if err := first.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Signal(syscall.SIGCONT)
	if err := os.Remove(filepath.Join(home, daemon.ClientFile)); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := run(t, home, "daemon")
	if err == nil {
		t.Fatal("a second daemon ran on a home whose daemon is stopped; want refused")
	}
	if want := "another reprise daemon (pid " + strconv.Itoa(first.Process.Pid); !strings.Contains(stderr, want) {
		t.Errorf("the refusal says:\n%s\nwant it to name the holder: %q", stderr, want)
	}
}
