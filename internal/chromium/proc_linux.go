package chromium

import (
	"os/exec"
	"syscall"
)

// ownGroup puts Chromium and the helpers it forks in a process group of
// their own, so Close stops them all before the profile dir is removed;
// and a Chromium whose parent is killed (a replay SIGKILLed mid-run) dies
// with it, leaving its profile free for the resumed run.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
