//go:build !linux && !darwin

package computer

import (
	"context"
	"errors"
	"runtime"
)

type noNotifier struct{}

// NewNotifier returns a notifier that reports it cannot: toast
// notifications on Windows need a registered app id, not built yet.
func NewNotifier() Notifier { return noNotifier{} }

func (noNotifier) Notify(context.Context, string, string) error {
	return errors.New("desktop notifications are not built for " + runtime.GOOS + " yet")
}
