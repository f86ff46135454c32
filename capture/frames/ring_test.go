package frames

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// script is a fake Grabber that hands out its frames in turn, then the last
// one for ever.
type script struct {
	mu     sync.Mutex
	frames []*image.RGBA
	next   int
	err    error
}

func (s *script) Grab() (*image.RGBA, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil, s.err
	}
	f := s.frames[min(s.next, len(s.frames)-1)]
	s.next++
	return clone(f), nil // the ring owns what Grab returns
}

// clock is an injectable clock that moves only when told.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

var t0 = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func solid(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

func clone(img *image.RGBA) *image.RGBA {
	c := *img
	c.Pix = bytes.Clone(img.Pix)
	return &c
}

var (
	red   = color.RGBA{0xff, 0, 0, 0xff}
	green = color.RGBA{0, 0xff, 0, 0xff}
	blue  = color.RGBA{0, 0, 0xff, 0xff}
)

// grabAt runs one grab of the ring with its clock at s seconds.
func grabAt(t *testing.T, r *Ring, c *clock, s float64) {
	t.Helper()
	c.t = at(s)
	if err := r.grabOnce(); err != nil {
		t.Fatalf("grabOnce at %v s: %v", s, err)
	}
}

// colorBefore decodes the frame Before(t) returns and reads its top-left pixel.
func colorBefore(t *testing.T, r *Ring, when time.Time) (color.RGBA, bool) {
	t.Helper()
	b, ok := r.Before(when)
	if !ok {
		return color.RGBA{}, false
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("png.Decode(Before(%v)): %v", when, err)
	}
	return color.RGBAModel.Convert(img.At(0, 0)).(color.RGBA), true
}

func TestBeforePicksNewestAtOrBefore(t *testing.T) {
	c := &clock{}
	r := NewRing(&script{frames: []*image.RGBA{solid(8, 8, red), solid(8, 8, green), solid(8, 8, blue)}}, RingOptions{Now: c.now})
	for _, s := range []float64{0, 1, 2} {
		grabAt(t, r, c, s)
	}
	tests := []struct {
		at     float64
		want   color.RGBA
		wantOK bool
	}{
		{-0.5, color.RGBA{}, false}, // before any frame: none, never a later one
		{0, red, true},
		{0.5, red, true},
		{0.999, red, true},
		{1, green, true},
		{1.5, green, true},
		{2, blue, true},
		{60, blue, true},
	}
	for _, tt := range tests {
		got, ok := colorBefore(t, r, at(tt.at))
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("Before(t0+%vs) = %v, %v; want %v, %v", tt.at, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestIdenticalFramesStoredAndEncodedOnce(t *testing.T) {
	c := &clock{}
	a, b := solid(8, 8, red), solid(8, 8, green)
	r := NewRing(&script{frames: []*image.RGBA{a, a, a, a, b, b}}, RingOptions{Now: c.now, Size: 2})
	for s := range 6 {
		grabAt(t, r, c, float64(s))
	}
	st := r.Stats()
	if st.Grabs != 6 || st.Stored != 2 || st.Deduped != 4 {
		t.Errorf("Stats() = %d grabs, %d stored, %d deduped; want 6, 2, 4", st.Grabs, st.Stored, st.Deduped)
	}
	// Ten steps over an unchanged screen share one encoding.
	var first []byte
	for i := range 10 {
		got, ok := r.Before(at(0.3 * float64(i)))
		if !ok {
			t.Fatalf("Before(t0+%vs) found no frame", 0.3*float64(i))
		}
		if first == nil {
			first = got
		} else if &got[0] != &first[0] {
			t.Fatalf("Before(t0+%vs) encoded the frame again", 0.3*float64(i))
		}
	}
	if got, _ := colorBefore(t, r, at(3.9)); got != red {
		t.Errorf("Before(t0+3.9s) = %v; want the red frame, seen until 3 s", got)
	}
	if got, _ := colorBefore(t, r, at(4)); got != green {
		t.Errorf("Before(t0+4s) = %v; want green", got)
	}
	if st := r.Stats(); st.Encoded != 2 {
		t.Errorf("Stats().Encoded = %d; want 2 (one per distinct frame)", st.Encoded)
	}
}

func TestRingDropsOldest(t *testing.T) {
	c := &clock{}
	r := NewRing(&script{frames: []*image.RGBA{solid(4, 4, red), solid(4, 4, green), solid(4, 4, blue)}}, RingOptions{Now: c.now, Size: 2})
	for _, s := range []float64{0, 1, 2} {
		grabAt(t, r, c, s)
	}
	if _, ok := r.Before(at(0.5)); ok {
		t.Errorf("Before(t0+0.5s) found a frame; want none, the red one was dropped")
	}
	if got, _ := colorBefore(t, r, at(1)); got != green {
		t.Errorf("Before(t0+1s) = %v; want green", got)
	}
}

func TestRingScalesFrames(t *testing.T) {
	c := &clock{}
	r := NewRing(&script{frames: []*image.RGBA{solid(3840, 2160, blue)}}, RingOptions{Now: c.now})
	grabAt(t, r, c, 0)
	b, ok := r.Before(at(0))
	if !ok {
		t.Fatal("Before found no frame")
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 1920 || cfg.Height != 1080 {
		t.Errorf("stored frame is %dx%d; want 1920x1080", cfg.Width, cfg.Height)
	}
}

func TestGrabErrorsAreCounted(t *testing.T) {
	c := &clock{}
	r := NewRing(&script{err: errors.New("no screen")}, RingOptions{Now: c.now})
	if err := r.grabOnce(); err == nil {
		t.Fatal("grabOnce() = nil; want the grabber's error")
	}
	if st := r.Stats(); st.Errors != 1 || st.Grabs != 0 {
		t.Errorf("Stats() = %d errors, %d grabs; want 1, 0", st.Errors, st.Grabs)
	}
	if _, ok := r.Before(at(1)); ok {
		t.Error("Before found a frame after a failed grab")
	}
}

// changing is a Grabber whose every frame differs from the last.
type changing struct{ n atomic.Uint32 }

func (g *changing) Grab() (*image.RGBA, error) {
	n := g.n.Add(1)
	return solid(32, 32, color.RGBA{uint8(n), uint8(n >> 8), 0, 0xff}), nil
}

func TestConcurrentBeforeWhileGrabbing(t *testing.T) {
	g := &changing{}
	r := NewRing(g, RingOptions{Rate: 500, Size: 4})
	r.Start(context.Background())
	defer r.Stop()
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				if b, ok := r.Before(time.Now()); ok {
					if _, err := png.DecodeConfig(bytes.NewReader(b)); err != nil {
						t.Errorf("Before returned a bad PNG: %v", err)
						return
					}
				}
			}
		})
	}
	// Read until the loop has stored a run of frames under the readers.
	deadline := time.Now().Add(10 * time.Second)
	for r.Stats().Stored < 20 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	close(done)
	wg.Wait()
	if st := r.Stats(); st.Stored < 20 {
		t.Errorf("Stats().Stored = %d after 10 s; want the loop to keep grabbing during Before calls", st.Stored)
	}
}

// gate is a Grabber that blocks in Grab until released.
type gate struct {
	entered chan struct{}
	release chan struct{}
	calls   atomic.Int32
}

func (g *gate) Grab() (*image.RGBA, error) {
	if g.calls.Add(1) == 1 {
		close(g.entered)
	}
	<-g.release
	return solid(2, 2, red), nil
}

func TestStopWaitsForTheLoop(t *testing.T) {
	g := &gate{entered: make(chan struct{}), release: make(chan struct{})}
	r := NewRing(g, RingOptions{Rate: 1000})
	r.Start(context.Background())
	<-g.entered
	stopped := make(chan struct{})
	go func() { r.Stop(); close(stopped) }()
	select {
	case <-stopped:
		t.Fatal("Stop returned while a grab was still running")
	case <-time.After(50 * time.Millisecond):
	}
	close(g.release)
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Stop did not return after the grab ended")
	}
	calls := g.calls.Load()
	time.Sleep(20 * time.Millisecond)
	if g.calls.Load() != calls {
		t.Error("the ring grabbed after Stop returned")
	}
	r.Stop() // twice is fine
}

func TestStopWithoutStart(t *testing.T) {
	r := NewRing(&changing{}, RingOptions{})
	done := make(chan struct{})
	go func() { r.Stop(); r.Stop(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Stop before Start blocked")
	}
}
