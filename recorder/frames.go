package recorder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
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
	sealed, err := s.r.sealFrame(s.recID, ref, image)
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

// Frame returns the image of a recording's frame, opened.
func (r *Recorder) Frame(ctx context.Context, recID, ref string) ([]byte, error) {
	if err := r.present(ctx, recID); err != nil {
		return nil, err
	}
	frames, err := r.cfg.JS.ObjectStore(ctx, events.ObjectFrames)
	if err != nil {
		return nil, fmt.Errorf("frames: %w", err)
	}
	sealed, err := frames.GetBytes(ctx, recID+"/"+ref)
	if err != nil {
		return nil, fmt.Errorf("frame %s of %s: %w", ref, recID, err)
	}
	sl, err := r.sealer(recID, false)
	if err != nil {
		return nil, err
	}
	return sl.Open(0, "frame:"+ref, sealed)
}

// present says whether recID was started and not evicted, reading two
// messages rather than folding the recording: a build asks for a frame per
// step, and a fold per frame made a 20,000-step build quadratic.
func (r *Recorder) present(ctx context.Context, recID string) error {
	if !events.ValidRecordingID(recID) {
		return notFound(recID)
	}
	st, err := r.cfg.JS.Stream(ctx, events.StreamRecordings)
	if err != nil {
		return fmt.Errorf("recordings stream: %w", err)
	}
	last := func(event string) (bool, error) {
		_, err := st.GetLastMsgForSubject(ctx, events.RecordingSubject(recID, event))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return false, nil
		}
		return err == nil, err
	}
	started, err := last(events.RecStarted)
	if err != nil {
		return fmt.Errorf("look up %s: %w", recID, err)
	}
	evicted, err := last(events.RecEvicted)
	if err != nil {
		return fmt.Errorf("look up %s: %w", recID, err)
	}
	if !started || evicted {
		return notFound(recID)
	}
	return nil
}

// maxFrameRef bounds a frame reference in a request.
const maxFrameRef = 128

// serveFrame answers events.LocalRecordingsFrame.
func (r *Recorder) serveFrame(ctx context.Context, body []byte) ([]byte, error) {
	var req struct {
		RecordingID string `json:"recording_id"`
		Ref         string `json:"ref"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.Ref == "" || len(req.Ref) > maxFrameRef {
		return nil, ops.Errorf(ops.CodeInvalidRequest, "malformed request: want {recording_id, ref}")
	}
	img, err := r.Frame(ctx, req.RecordingID, req.Ref)
	if err != nil {
		return nil, ops.Errorf(ops.CodeNotFound, "no such frame; `reprise recordings list` shows the recordings kept")
	}
	return img, nil
}
