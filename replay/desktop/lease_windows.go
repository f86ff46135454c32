package desktop

import (
	"fmt"

	"golang.org/x/sys/windows"
)

// displayLock is the lease of the console session this process runs in:
// a desktop on Windows belongs to a session (each user's, each remote
// one), so its file is keyed by the session's id.
func displayLock(_, name string) (locker, error) {
	var id uint32
	if err := windows.ProcessIdToSessionId(windows.GetCurrentProcessId(), &id); err != nil {
		return sessionFile("console", name)
	}
	return sessionFile(fmt.Sprintf("session-%d", id), name)
}
