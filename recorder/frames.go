package recorder

import (
	"context"
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// sessionSink is what a recording's sources are given: the bounded queue for
// steps and, for sources with frames, sealed storage in FRAMES.
type sessionSink struct {
	*capture.Queue
	r     *Recorder
	recID string
}

var _ capture.FrameSink = sessionSink{}

// MaxFrameSize bounds one frame; a 1920 px PNG of a busy screen is far less.
const MaxFrameSize = 16 << 20

// PutFrame implements capture.FrameSink: the frame is sealed under the
// recording's key and stored as <rec_id>/<ref>.
func (s sessionSink) PutFrame(ctx context.Context, ref string, image []byte) error {
	if !events.ValidToken(ref) || strings.ContainsRune(ref, '/') {
		return fmt.Errorf("frame reference is not a single token")
	}
	if len(image) == 0 || len(image) > MaxFrameSize {
		return fmt.Errorf("frame of %d bytes: want 1 to %d", len(image), MaxFrameSize)
	}
	sealed, err := s.r.seal.SealFrame(s.recID, ref, image)
	if err != nil {
		return err
	}
	frames, err := s.r.cfg.JS.ObjectStore(ctx, events.ObjectFrames)
	if err != nil {
		return fmt.Errorf("frames: %w", err)
	}
	if _, err := frames.PutBytes(ctx, s.recID+"/"+ref, sealed); err != nil {
		return fmt.Errorf("store frame: %w", err)
	}
	return nil
}
