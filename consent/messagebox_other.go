//go:build !windows

package consent

import (
	"context"
	"errors"
	"runtime"

	"github.com/reprise-dev/reprise/api"
)

// Available implements Prompter: never, off Windows.
func (m *MessageBox) Available() (bool, string) {
	return false, "message boxes exist only on Windows, not on " + runtime.GOOS
}

// Ask implements Prompter: it always fails, off Windows.
func (m *MessageBox) Ask(context.Context, api.ConsentPrompt) (Decision, error) {
	return Decision{}, errors.New("message boxes are not supported on " + runtime.GOOS)
}
