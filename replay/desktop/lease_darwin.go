package desktop

// displayLock is the lease of the console session: on macOS one GUI
// session per user, so a file in the user's cache dir.
func displayLock(_, name string) (locker, error) { return sessionFile("console", name) }
