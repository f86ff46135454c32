//go:build unix && !linux

package chromium

import (
	"os/exec"
	"syscall"
)

// ownGroup puts Chromium and the helpers it forks in a process group of
// their own, so Close stops them all before the profile dir is removed.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
