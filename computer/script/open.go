package script

import (
	"errors"
	"image"
	"log/slog"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/platform/screen"
)

// Open gathers this OS's parts for display ("" for the default): each one
// that cannot open is left nil, and the calls needing it throw.
func Open(display string, log *slog.Logger) Platform {
	p := Platform{Backend: backend}
	var closers []func() error
	if g, closeGrab, err := screen.Open(display); err == nil {
		p.Screen = g
		closers = append(closers, closeGrab)
	} else {
		log.Info("computer runs get no screenshots", "reason", err)
	}
	if in, err := input.New(display); err == nil {
		p.Input = in
		closers = append(closers, in.Close)
	} else {
		log.Info("computer runs get no input", "reason", err)
	}
	if t, closeTree, err := ax.Open(display, log); err == nil {
		if tl, ok := t.(Tree); ok {
			p.Tree = tl
		}
		closers = append(closers, closeTree)
	} else {
		log.Info("computer runs get no accessibility tree", "reason", err)
	}
	p.Clipboard = newClipboard(display)
	p.Displays = func() ([]image.Rectangle, error) { return displays(display) }
	p.Close = func() error {
		var errs []error
		for _, c := range closers {
			errs = append(errs, c())
		}
		return errors.Join(errs...)
	}
	return p
}
