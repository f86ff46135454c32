package computer

import (
	"context"
	"os/exec"
	"strconv"
)

// osaNotifier shows a notification through AppleScript, the one way a
// process without an app bundle has.
type osaNotifier struct{}

// NewNotifier returns the Notification Center's notifier.
func NewNotifier() Notifier { return osaNotifier{} }

func (osaNotifier) Notify(ctx context.Context, summary, body string) error {
	script := "display notification " + strconv.Quote(body) + " with title " + strconv.Quote(summary)
	return exec.CommandContext(ctx, "osascript", "-e", script).Run()
}
