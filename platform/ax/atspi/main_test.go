package atspi

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// TestMain gives the tests a D-Bus session of their own when there is none
// (plain "go test"; scripts/with-keyring already provides one): it re-runs
// this test binary under dbus-run-session, which ends the bus, the
// accessibility bus and its registry when the tests end. XDG_RUNTIME_DIR is
// a fresh directory so that at-spi-bus-launcher's socket (there, under
// at-spi/) is not shared with another run on this machine.
func TestMain(m *testing.M) {
	if runtime.GOOS == "linux" && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" && os.Getenv(reexecVar) == "" {
		os.Exit(underSession())
	}
	os.Exit(m.Run())
}

const reexecVar = "REPRISE_ATSPI_SESSION"

func underSession() int {
	if _, err := exec.LookPath("dbus-run-session"); err != nil {
		fmt.Fprintln(os.Stderr, "atspi tests: dbus-run-session is missing: run scripts/deps (Debian package dbus-bin)")
		return 1
	}
	dir, err := os.MkdirTemp("", "atspi-run")
	if err != nil {
		fmt.Fprintln(os.Stderr, "atspi tests:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("dbus-run-session", append([]string{"--", os.Args[0]}, os.Args[1:]...)...)
	cmd.Env = append(os.Environ(), reexecVar+"=1", "XDG_RUNTIME_DIR="+dir)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "atspi tests: dbus-run-session:", err)
		return 1
	}
	return 0
}
