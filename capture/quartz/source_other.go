//go:build !darwin

package quartz

import (
	"context"
	"image"

	"github.com/reprise-dev/reprise/capture"
)

// session is empty here: nothing ever starts.
type session struct{ pipe *pipeline }

// Available reports that Quartz capture runs on macOS only.
func (s *Source) Available() (bool, string) {
	return false, ErrUnsupported.Error() + "; use this system's own floor source"
}

// Start fails: there is no Quartz here.
func (s *Source) Start(context.Context, capture.Session, capture.Sink) error {
	return ErrUnsupported
}

// Stop does nothing: nothing was started.
func (s *Source) Stop() error { return nil }

// Windows lists the on-screen windows front to back; macOS only.
func Windows() ([]WindowInfo, error) { return nil, ErrUnsupported }

// Frontmost returns the frontmost application's name and process; macOS
// only.
func Frontmost() (name string, pid int, err error) { return "", 0, ErrUnsupported }

// Grabber grabs the whole desktop; macOS only.
type Grabber struct{}

// NewGrabber fails off macOS.
func NewGrabber() (*Grabber, error) { return nil, ErrUnsupported }

// Grab fails off macOS.
func (*Grabber) Grab() (*image.RGBA, error) { return nil, ErrUnsupported }

// RequestListenAccess is macOS only.
func RequestListenAccess() bool { return false }

// ScreenCaptureAllowed is macOS only.
func ScreenCaptureAllowed() bool { return false }

// RequestScreenCapture is macOS only.
func RequestScreenCapture() bool { return false }

// ActivateApp is macOS only.
func ActivateApp(int) error { return ErrUnsupported }
