//go:build !darwin

package consent

import (
	"context"
	"errors"
	"runtime"

	"github.com/reprise-dev/reprise/api"
)

// Available implements Prompter: never, off macOS.
func (o *OSAScript) Available() (bool, string) {
	return false, "osascript dialogs exist only on macOS, not on " + runtime.GOOS
}

// Ask implements Prompter: it always fails, off macOS.
func (o *OSAScript) Ask(context.Context, api.ConsentPrompt) (Decision, error) {
	return Decision{}, errors.New("osascript dialogs are not supported on " + runtime.GOOS)
}
