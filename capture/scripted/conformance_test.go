package scripted

import (
	"testing"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/capturetest"
)

func TestConformance(t *testing.T) {
	channels := []string{capture.ChannelFloor, capture.ChannelBrowser}
	for _, tc := range []struct {
		name string
		opts Options
	}{
		// Still playing when the suite stops or cancels it.
		{"loop", Options{Speed: 10, Loop: true}},
		// Done before the suite looks: nothing may come after.
		{"once", Options{Speed: 0}},
		// As fast as it can, for ever: a flood into a full queue.
		{"flood", Options{Speed: 0, Loop: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			capturetest.Run(t, func(t *testing.T) capture.Source {
				return New("scripted", form, channels, tc.opts)
			}, nil, len(formSteps(t)))
		})
	}
}

// TestConformanceUnavailable runs the suite on a source that cannot run:
// the static checks pass and the rest is skipped.
func TestConformanceUnavailable(t *testing.T) {
	missing := t.TempDir() + "/missing.json"
	capturetest.Run(t, func(t *testing.T) capture.Source {
		return New("scripted", missing, []string{capture.ChannelFloor}, Options{})
	}, nil, 1)
}
