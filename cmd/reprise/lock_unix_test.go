//go:build !windows

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/daemon"
)

// TestSecondDaemonRefusedWhileFirstIsStopped: a daemon stopped with
// SIGSTOP answers nothing and its client.json may be gone, yet it still
// holds the store; a second daemon must not open it.
func TestSecondDaemonRefusedWhileFirstIsStopped(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	first := startDaemonProcess(t, home)
	if err := first.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Signal(syscall.SIGCONT)
	if err := os.Remove(filepath.Join(home, api.ClientFile)); err != nil {
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

// TestSecondDaemonRefusedWhenTheLockFileIsDeleted: a local program that
// deletes daemon.lock while the daemon runs must not let a second daemon
// onto the same store (issue 32): the data dir itself is locked.
func TestSecondDaemonRefusedWhenTheLockFileIsDeleted(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	startDaemonProcess(t, home)
	if err := os.Remove(filepath.Join(home, daemon.LockFile)); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := run(t, home, "daemon")
	if err == nil {
		t.Fatal("a second daemon ran on a home whose lock file was deleted; want refused")
	}
	if !strings.Contains(stderr, "another reprise daemon") {
		t.Errorf("the refusal says:\n%s\nwant it to say another daemon holds the data dir", stderr)
	}
}
