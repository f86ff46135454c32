//go:build !linux && !darwin && !windows

package computer

import (
	"context"
	"errors"
	"runtime"
)

type noNotifier struct{}

// NewNotifier returns a notifier that reports it cannot.
func NewNotifier() Notifier { return noNotifier{} }

func (noNotifier) Notify(context.Context, string, string) error {
	return errors.New("desktop notifications are not built for " + runtime.GOOS)
}
