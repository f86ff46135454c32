package quartz

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/events"
)

type sinkFunc struct {
	mu    sync.Mutex
	steps []events.Step
}

func (s *sinkFunc) Emit(st events.Step) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steps = append(s.steps, st)
	return nil
}

func TestPipelineNamesWindowAndNeverBlocks(t *testing.T) {
	sink := &sinkFunc{}
	p := newPipeline(sink, withDefaults(Options{QueueSize: 2, EnrichTimeout: time.Second}), func(e Event, w *desktop.Window) {
		w.ID, w.App, w.Title = 7, "TextEdit", "Untitled"
	})
	now := time.Now()
	p.Feed(Event{Kind: KeyDown, Keycode: 0x00, Text: "a", Time: now})
	p.Feed(Event{Kind: KeyDown, Keycode: 0x0B, Text: "b", Time: now})
	p.Feed(Event{Kind: KeyDown, Keycode: 0x08, Text: "c", Time: now}) // queue full: dropped, not blocked
	p.Close()
	p.Run(context.Background())
	if len(sink.steps) != 1 || sink.steps[0].Value.Raw != "ab" || sink.steps[0].ActiveApp != "TextEdit" ||
		sink.steps[0].ActiveWindow != "Untitled" {
		t.Fatalf("steps = %+v", sink.steps)
	}
	if st := p.stats(); st.Events != 3 || st.DroppedEvents != 1 || st.Steps != 1 {
		t.Errorf("stats = %+v", st)
	}
}

func TestSourceIdentity(t *testing.T) {
	s := New(Options{})
	if s.Name() != "quartz" || len(s.Channels()) != 1 || s.Channels()[0] != "floor" {
		t.Errorf("name %q channels %v", s.Name(), s.Channels())
	}
	if err := s.Stop(); err != nil {
		t.Errorf("Stop without Start: %v", err)
	}
}
