package recordings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// Frame returns the image of a recording's frame, opened.
func (r *Reader) Frame(ctx context.Context, recID, ref string) ([]byte, error) {
	if err := r.present(ctx, recID); err != nil {
		return nil, err
	}
	frames, err := r.js.ObjectStore(ctx, events.ObjectFrames)
	if err != nil {
		return nil, fmt.Errorf("frames: %w", err)
	}
	sealed, err := frames.GetBytes(ctx, recID+"/"+ref)
	if err != nil {
		return nil, fmt.Errorf("frame %s of %s: %w", ref, recID, err)
	}
	return r.seal.OpenFrame(recID, ref, sealed)
}

// present says whether recID was started and not evicted, reading two
// messages rather than folding the recording: a build asks for a frame per
// step, and a fold per frame made a 20,000-step build quadratic.
func (r *Reader) present(ctx context.Context, recID string) error {
	if !events.ValidRecordingID(recID) {
		return NotFound(recID)
	}
	st, err := r.js.Stream(ctx, events.StreamRecordings)
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
		return NotFound(recID)
	}
	return nil
}

// maxFrameRef bounds a frame reference in a request.
const maxFrameRef = 128

// serveFrame answers events.LocalRecordingsFrame.
func (r *Reader) serveFrame(ctx context.Context, body []byte) ([]byte, error) {
	var req api.FrameRequest
	if err := json.Unmarshal(body, &req); err != nil || req.Ref == "" || len(req.Ref) > maxFrameRef {
		return nil, ops.Errorf(ops.CodeInvalidRequest, "malformed request: want {recording_id, ref}")
	}
	img, err := r.Frame(ctx, req.RecordingID, req.Ref)
	if err != nil {
		return nil, ops.Errorf(ops.CodeRecordingNotFound, "no such frame")
	}
	return img, nil
}
