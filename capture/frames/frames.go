// Package frames keeps a ring of recent screen frames, so that a step can
// carry the frame from just before its input event without the input
// callback ever waiting for a screenshot (SPEC section 9).
//
// A Ring grabs on its own goroutine at a low rate, scales each grab to at
// most MaxEdge pixels on the long edge, and stores a frame only when it
// differs from the newest one kept. PNG encoding is deferred to Before, done
// at most once per stored frame, and paid by the caller that builds the step.
package frames

import (
	"context"
	"hash/maphash"
	"image"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reprise-dev/reprise/platform/screen"
)

// RingOptions configures a Ring. Zero fields take the documented defaults.
type RingOptions struct {
	// Rate is how many grabs the ring takes per second; default 2.
	Rate float64
	// Size is how many distinct frames the ring keeps; default 8.
	Size int
	// MaxEdge caps the long edge of a stored frame in pixels; default 1920.
	MaxEdge int
	// Now is the clock; default time.Now. Tests inject their own.
	Now func() time.Time
	// Logger receives grab failures; default slog.Default().
	Logger *slog.Logger
}

// Log keys.
const (
	keyErr   = "err"
	keyGrabs = "grabs"
)

// Stats counts the ring's work, for benchmarks and the doctor.
type Stats struct {
	Grabs   uint64 // grabs that returned a frame
	Errors  uint64 // grabs that failed
	Stored  uint64 // frames stored (differed from the newest one)
	Deduped uint64 // frames identical to the newest one, not stored again
	Encoded uint64 // PNG encodings done

	LastGrab   time.Duration // the last Grab call, including any conversion
	LastScale  time.Duration // the last scaling of a stored frame (0 if none needed)
	LastEncode time.Duration // the last PNG encoding
}

// Ring is a bounded history of recent, distinct frames. Before is safe for
// concurrent use with the grab loop and with other Before calls.
type Ring struct {
	g    screen.Grabber
	opts RingOptions
	seed maphash.Seed
	log  *slog.Logger

	mu      sync.Mutex
	entries []*entry // oldest first, at most opts.Size
	stats   Stats

	startOnce sync.Once
	stopOnce  sync.Once
	cancel    context.CancelFunc
	done      chan struct{}
	encodes   atomic.Uint64
	lastEnc   atomic.Int64
}

// entry is one distinct frame: seen unchanged from first to last.
type entry struct {
	first, last time.Time
	sum         uint64 // hash of the unscaled grab, to spot repeats cheaply
	w, h        int    // unscaled size, part of the identity
	img         *image.RGBA

	once sync.Once
	png  []byte
	err  error
}

// NewRing returns a ring over g; call Start to begin grabbing.
func NewRing(g screen.Grabber, opts RingOptions) *Ring {
	if opts.Rate <= 0 {
		opts.Rate = 2
	}
	if opts.Size <= 0 {
		opts.Size = 8
	}
	if opts.MaxEdge <= 0 {
		opts.MaxEdge = 1920
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Ring{
		g: g, opts: opts, seed: maphash.MakeSeed(),
		log:  opts.Logger.WithGroup("frames"),
		done: make(chan struct{}),
	}
}

// Start begins grabbing on a goroutine of its own, at once and then at
// Rate, until ctx ends or Stop is called. A ring starts once: calls after
// the first, or after Stop, do nothing.
func (r *Ring) Start(ctx context.Context) {
	r.startOnce.Do(func() {
		ctx, r.cancel = context.WithCancel(ctx)
		go r.loop(ctx)
	})
}

// Stop ends grabbing and waits for the loop to return. It is safe to call
// twice, and before Start.
func (r *Ring) Stop() {
	r.startOnce.Do(func() { close(r.done) }) // never started: nothing to wait for
	r.stopOnce.Do(func() {
		if r.cancel != nil {
			r.cancel()
		}
	})
	<-r.done
}

func (r *Ring) loop(ctx context.Context) {
	defer close(r.done)
	t := time.NewTicker(time.Duration(float64(time.Second) / r.opts.Rate))
	defer t.Stop()
	failing := false
	for {
		// A failing grab is logged when it starts and when it ends, not at
		// every tick: a locked screen may fail for minutes.
		if err := r.grabOnce(); err != nil && !failing {
			failing = true
			r.log.Warn("screen grab failed", keyErr, err)
		} else if err == nil && failing {
			failing = false
			r.log.Info("screen grab recovered", keyGrabs, r.Stats().Grabs)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// grabOnce takes one grab and files it. The frame is stamped when the grab
// has returned, so a frame chosen by Before was read entirely before t.
func (r *Ring) grabOnce() error {
	start := time.Now()
	img, err := r.g.Grab()
	took := time.Since(start)
	now := r.opts.Now()
	if err != nil {
		r.mu.Lock()
		r.stats.Errors++
		r.mu.Unlock()
		return err
	}
	sum := hashPixels(r.seed, img)
	w, h := img.Rect.Dx(), img.Rect.Dy()

	r.mu.Lock()
	r.stats.Grabs++
	r.stats.LastGrab = took
	if n := len(r.entries); n > 0 {
		if e := r.entries[n-1]; e.sum == sum && e.w == w && e.h == h {
			e.last = now
			r.stats.Deduped++
			r.mu.Unlock()
			return nil
		}
	}
	r.mu.Unlock()

	// Scale outside the lock: Before must not wait for it.
	start = time.Now()
	small := scaleDown(img, r.opts.MaxEdge)
	scaled := time.Duration(0)
	if small != img {
		scaled = time.Since(start)
	}
	e := &entry{first: now, last: now, sum: sum, w: w, h: h, img: small}

	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.entries) == r.opts.Size {
		r.entries[0] = nil
		r.entries = r.entries[1:]
	}
	r.entries = append(r.entries, e)
	r.stats.Stored++
	r.stats.LastScale = scaled
	return nil
}

// hashPixels hashes the visible pixels row by row, so a sub-image's stride
// padding never makes two equal frames differ.
func hashPixels(seed maphash.Seed, img *image.RGBA) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	w := img.Rect.Dx() * 4
	if img.Stride == w {
		_, _ = h.Write(img.Pix[:w*img.Rect.Dy()])
		return h.Sum64()
	}
	for y := 0; y < img.Rect.Dy(); y++ {
		_, _ = h.Write(img.Pix[y*img.Stride : y*img.Stride+w])
	}
	return h.Sum64()
}

// Before returns the PNG of the newest frame grabbed at or before t, and
// false when the ring holds none that old. The bytes are shared with other
// callers and must not be modified. The first caller for a frame encodes it.
func (r *Ring) Before(t time.Time) ([]byte, bool) {
	r.mu.Lock()
	var e *entry
	for i := len(r.entries) - 1; i >= 0; i-- {
		if !r.entries[i].first.After(t) {
			e = r.entries[i]
			break
		}
	}
	r.mu.Unlock()
	if e == nil {
		return nil, false
	}
	e.once.Do(func() {
		start := time.Now()
		e.png, e.err = screen.Encode(e.img)
		r.lastEnc.Store(int64(time.Since(start)))
		r.encodes.Add(1)
	})
	if e.err != nil {
		return nil, false // only an empty frame fails to encode
	}
	return e.png, true
}

// Stats returns a snapshot of the ring's counters.
func (r *Ring) Stats() Stats {
	r.mu.Lock()
	s := r.stats
	r.mu.Unlock()
	s.Encoded = r.encodes.Load()
	s.LastEncode = time.Duration(r.lastEnc.Load())
	return s
}
