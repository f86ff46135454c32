package consent

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func TestTerminalAvailableOnAPseudoTerminal(t *testing.T) {
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	if ok, why := (&Terminal{In: ptm, Out: io.Discard}).Available(); !ok {
		t.Fatalf("Terminal.Available on a pseudo-terminal = false, %q; want true", why)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if ok, _ := (&Terminal{In: null, Out: io.Discard}).Available(); ok {
		t.Fatalf("Terminal.Available on %s = true; want false", os.DevNull)
	}
}

const ttyProbeEnv = "REPRISE_TTY_PROBE"

// TestMain lets the test binary act as the probe children below.
func TestMain(m *testing.M) {
	switch os.Getenv(ttyProbeEnv) {
	case "":
		os.Exit(m.Run())
	case "report":
		fmt.Print(isTerminal(0))
		os.Exit(0)
	case "background":
		// A session leader with the terminal in the foreground starts a
		// child in a process group of its own: a background job.
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), ttyProbeEnv+"=report")
		cmd.Stdin, cmd.Stdout = os.Stdin, os.Stdout
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Run(); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
}

// TestTerminalForegroundOnly: on its controlling terminal a process may ask
// only from the foreground; a background job would be stopped by SIGTTIN.
func TestTerminalForegroundOnly(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want string
	}{{"report", "true"}, {"background", "false"}} {
		ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer ptm.Close()
		if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
			t.Fatal(err)
		}
		n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
		if err != nil {
			t.Fatal(err)
		}
		pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer pts.Close()
		var out strings.Builder
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), ttyProbeEnv+"="+tc.mode)
		cmd.Stdin, cmd.Stdout = pts, &out
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s probe: %v", tc.mode, err)
		}
		if out.String() != tc.want {
			t.Errorf("isTerminal from a %s process = %s; want %s", tc.mode, out.String(), tc.want)
		}
	}
}
