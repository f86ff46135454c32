package quartz

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture/x11"
	"github.com/reprise-dev/reprise/events"
)

func TestPickWindow(t *testing.T) {
	list := []WindowInfo{
		{Number: 1, Layer: 25, OwnerPID: 9, Owner: "Dock", Bounds: Rect{0, 0, 2000, 2000}},
		{Number: 2, Layer: 0, OwnerPID: 10, Owner: "Safari", Name: "Apple", Bounds: Rect{0, 0, 100, 100}},
		{Number: 3, Layer: 0, OwnerPID: 11, Owner: "Notes", Name: "Notes", Bounds: Rect{50, 50, 200, 200}},
	}
	for _, tc := range []struct {
		name    string
		id      uint32
		pid     int
		x, y    int
		atPoint bool
		want    uint32
	}{
		{"by id", 3, 0, 0, 0, true, 3},
		{"frontmost normal window at point", 0, 0, 60, 60, true, 2},
		{"layer above ignored", 0, 0, 150, 150, true, 3},
		{"keys go to the pid's window", 0, 11, 0, 0, false, 3},
		{"nothing", 0, 0, 900, 900, true, 0},
	} {
		w, ok := PickWindow(list, tc.id, tc.pid, tc.x, tc.y, tc.atPoint)
		if w.Number != tc.want || ok != (tc.want != 0) {
			t.Errorf("%s: got %d, %v; want %d", tc.name, w.Number, ok, tc.want)
		}
	}
	if w, ok := FindWindow(list, "Notes"); !ok || w.OwnerPID != 11 {
		t.Errorf("FindWindow = %+v, %v", w, ok)
	}
}

func TestToRGBA(t *testing.T) {
	// Two pixels, stride 12 (padding), premultiplied-first little endian:
	// B G R A in memory.
	src := []byte{1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0}
	img, err := ToRGBA(src, 2, 1, 12, 32, alphaPremulFrst|byteOrder32Le)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Pix, []byte{3, 2, 1, 4, 7, 6, 5, 8}; string(got) != string(want) {
		t.Errorf("BGRA: %v, want %v", got, want)
	}
	img, _ = ToRGBA(src, 2, 1, 12, 32, alphaSkipLast) // R G B x, big endian
	if got, want := img.Pix, []byte{1, 2, 3, 255, 5, 6, 7, 255}; string(got) != string(want) {
		t.Errorf("RGBX: %v, want %v", got, want)
	}
	img, _ = ToRGBA(src, 2, 1, 12, 32, alphaFirst) // A R G B
	if got, want := img.Pix, []byte{2, 3, 4, 1, 6, 7, 8, 5}; string(got) != string(want) {
		t.Errorf("ARGB: %v, want %v", got, want)
	}
	if _, err := ToRGBA(src, 4, 1, 12, 32, 0); err == nil {
		t.Error("short data accepted")
	}
	if _, err := ToRGBA(src, 2, 1, 12, 24, 0); err == nil {
		t.Error("24-bit accepted")
	}
}

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
	p := newPipeline(sink, withDefaults(Options{QueueSize: 2, EnrichTimeout: time.Second}), func(e Event, w *x11.Window) {
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
