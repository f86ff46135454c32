package script

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
)

// TestClipboardOwnerUnderXvfb: the X server, not the program, says whose
// copy the clipboard holds (issue 32: a read-only run read what another
// application copied).
func TestClipboardOwnerUnderXvfb(t *testing.T) {
	if _, err := exec.LookPath("xclip"); err != nil {
		t.Skipf("CLIPBOARD TEST SKIPPED: no xclip (%v); scripts/deps installs it", err)
	}
	d := xvfb.Start(t)
	clip := xclip{display: d.Display}
	if pid, err := clip.Owner(t.Context()); err != nil || pid != 0 {
		t.Fatalf("Owner of an empty clipboard = %d, %v; want 0", pid, err)
	}
	// Another application's copy: an xclip in the foreground, whose pid
	// is the one the X server knows (a forked xclip's would be its
	// parent's, gone).
	other := exec.Command("xclip", "-selection", "clipboard", "-quiet", "-i")
	other.Env = d.Env()
	other.Stdin = strings.NewReader("copied by another app")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0; {
		var err error
		if pid, err = clip.Owner(t.Context()); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("the clipboard has no owner after a copy")
		}
	}
	if pid != other.Process.Pid {
		t.Errorf("Owner = pid %d; want %d, the application holding the copy", pid, other.Process.Pid)
	}
}
