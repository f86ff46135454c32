package desktop

import (
	"context"
	"image"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/events"
)

// Snapshotter is an Enricher that can list the elements a window shows,
// with where each is drawn.
type Snapshotter interface {
	Elements(ctx context.Context, title string) ([]Seen, error)
}

// Seen is one element of a window's snapshot.
type Seen struct {
	Bounds     image.Rectangle
	Enrichment *events.Enrichment
}

// snapshotEvery is how often input may start a new read of the window:
// typing must not keep the accessibility bus busy.
const snapshotEvery = 500 * time.Millisecond

// snapshot is the last read of the window the person works in, taken in
// the background after their input. A press is looked up when the
// pipeline gets to it; on a busy machine the click has done its work by
// then (an OK closed its dialog) and the lookup fails. What the window
// showed before still names the element under the press.
type snapshot struct {
	src  Snapshotter
	wg   sync.WaitGroup
	mu   sync.Mutex
	busy bool
	last time.Time // when the last read started
	// title and els are the last read that succeeded.
	title string
	els   []Seen
}

// refresh starts a read of the window titled title, unless one is under
// way or started less than snapshotEvery ago.
func (s *snapshot) refresh(ctx context.Context, title string, timeout time.Duration) {
	if s == nil || title == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy || time.Since(s.last) < snapshotEvery {
		return
	}
	s.busy, s.last = true, time.Now()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		rctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		els, err := s.src.Elements(rctx, title)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.busy = false
		if err == nil {
			s.title, s.els = title, els
		}
	}()
}

// at returns a copy of the smallest element of the window titled title
// that covered (x, y) when last read; nil when none did.
func (s *snapshot) at(title string, x, y int) *events.Enrichment {
	if s == nil || title == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.title != title {
		return nil
	}
	pt := image.Pt(x, y)
	var best *Seen
	for i := range s.els {
		el := &s.els[i]
		if el.Enrichment == nil || !pt.In(el.Bounds) {
			continue
		}
		if best == nil || area(el.Bounds) <= area(best.Bounds) {
			best = el
		}
	}
	if best == nil {
		return nil
	}
	e := *best.Enrichment
	return &e
}

// wait returns once no read is under way.
func (s *snapshot) wait() {
	if s != nil {
		s.wg.Wait()
	}
}

func area(r image.Rectangle) int { return r.Dx() * r.Dy() }
