package chrome

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// maxWaitingFrames bounds the frames kept in memory until a step names them:
// a step names one of the last few captures of its tab.
const maxWaitingFrames = 8

// maxStoring bounds the frames being sealed and stored at once; beyond it a
// frame is dropped (and logged), never queued without limit.
const maxStoring = 32

// frameBook matches one recording's frames to the steps that name them. The
// extension sends a frame on its own, as soon as the tab is captured; a step
// names it by the extension's id, and may arrive first when the capture was
// still running (pending). Either way the step gets its screenshot_ref at
// once, and the frame is stored under it when both are in.
//
// A ref is never left without a frame while one exists: when a pending
// capture fails, or never arrives before the recording stops, the newest
// frame the recording has (older, but still from before the action) is
// stored under it instead.
type frameBook struct {
	waiting map[string][]byte // arrived, not named yet
	order   []string          // waiting's ids, oldest first
	refs    map[string]string // frame id -> ref, once named
	pending map[string]string // frame id -> ref named before the frame arrived
	last    []byte            // the newest frame that arrived
}

func newFrameBook() *frameBook {
	return &frameBook{waiting: map[string][]byte{}, refs: map[string]string{}, pending: map[string]string{}}
}

// arrived takes frame id from the extension; frame is nil when its capture
// failed. It returns what to store under which ref, if anything.
func (b *frameBook) arrived(id string, frame []byte) (ref string, store []byte) {
	if frame != nil {
		b.last = frame
	}
	if ref, ok := b.pending[id]; ok {
		delete(b.pending, id)
		if frame == nil {
			return ref, b.last
		}
		return ref, frame
	}
	if frame == nil {
		return "", nil
	}
	if _, ok := b.waiting[id]; !ok {
		if len(b.order) == maxWaitingFrames {
			delete(b.waiting, b.order[0])
			b.order = b.order[1:]
		}
		b.order = append(b.order, id)
	}
	b.waiting[id] = frame
	return "", nil
}

// name gives a step naming frame id its ref. pending says the extension is
// still capturing or sending that frame.
func (b *frameBook) name(id string, pending bool) (ref string, store []byte) {
	if ref, ok := b.refs[id]; ok {
		return ref, nil // one capture before two steps: stored once
	}
	if frame, ok := b.waiting[id]; ok {
		ref = events.NewFrameRef()
		b.refs[id] = ref
		return ref, frame
	}
	if pending {
		ref = events.NewFrameRef()
		b.refs[id] = ref
		b.pending[id] = ref
		return ref, nil
	}
	return "", nil
}

// inline names a frame that came inside its step.
func (b *frameBook) inline(frame []byte) string {
	b.last = frame
	return events.NewFrameRef()
}

// unresolved hands over the refs still waiting for their frame, with the
// newest frame to store under each instead, and forgets them.
func (b *frameBook) unresolved() (map[string]string, []byte) {
	p := b.pending
	b.pending = map[string]string{}
	return p, b.last
}

// store seals and stores frame under ref, off the caller's path: a screenshot
// takes milliseconds to seal. Stop waits for it.
func (s *Source) store(ref string, frame []byte) {
	if ref == "" || frame == nil {
		return
	}
	fs, ok := s.sink.(capture.FrameSink)
	if !ok {
		return
	}
	select {
	case s.frames <- struct{}{}:
	default:
		s.log.Warn("frame dropped: too many frames being stored; its step refers to nothing")
		return
	}
	s.storing.Add(1)
	go func() {
		defer func() { <-s.frames; s.storing.Done() }()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := fs.PutFrame(ctx, ref, frame); err != nil {
			s.log.Warn("frame not kept; its step refers to nothing", "err", err)
		}
	}()
}

func decodeImage(b64 string) ([]byte, error) {
	frame, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || !isImage(frame) {
		return nil, errors.New("frame must be a base64 PNG or JPEG")
	}
	return frame, nil
}

func isImage(b []byte) bool {
	return bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff})
}
