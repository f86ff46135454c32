//go:build unix

package extract

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the child in a process group of its own so that a timeout
// also stops whatever it started (a helper script's sleep, say).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
