// Package floor is the desktop floor of this OS (SPEC section 9): input
// events folded into steps, each with its pre-action frame and, where the
// accessibility tree knows the element, its role and label. On Linux that
// is X11 RECORD, the frame ring over X11 grabs, and AT-SPI; on Windows the
// low-level hooks, BitBlt frames, and UI Automation else MSAA; on macOS
// the Quartz event tap, CGWindowList frames and AX.
package floor

import (
	"context"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// secretSink drops the value of a step the accessibility tree calls a
// password field, before anything else sees it (SPEC 8).
type secretSink struct {
	capture.Sink
	isPassword func(*events.Enrichment) bool // this OS's tree's test
}

func (s secretSink) Emit(st events.Step) error {
	if st.Enrichment != nil && s.isPassword(st.Enrichment) && st.Value != nil {
		st.Value = &events.Value{Type: events.ValueSecret}
		st.Redacted = true
	}
	return s.Sink.Emit(st)
}

// PutFrame passes frames on to a sink that keeps them.
func (s secretSink) PutFrame(ctx context.Context, ref string, img []byte) error {
	if fs, ok := s.Sink.(capture.FrameSink); ok {
		return fs.PutFrame(ctx, ref, img)
	}
	return nil
}
