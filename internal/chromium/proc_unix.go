//go:build unix

package chromium

import (
	"os/exec"
	"syscall"
)

func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
