// Package screen grabs the desktop on every OS: X11 (MIT-SHM when local)
// on Linux, GDI on Windows, CoreGraphics on macOS. Recording keeps recent
// grabs in a ring (capture/frames); replay compares the screen with a
// recorded frame and reads fields back by OCR.
package screen

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"sync"
)

// ErrUnavailable is returned where the screen cannot be grabbed.
var ErrUnavailable = errors.New("screen grabbing is unavailable")

// Grabber takes one screenshot. Callers call Grab one at a time; the image
// it returns is the caller's.
type Grabber interface {
	Grab() (*image.RGBA, error)
}

// encoders recycles the PNG encoder's buffers across frames.
type encoders struct{ p sync.Pool }

func (e *encoders) Get() *png.EncoderBuffer  { b, _ := e.p.Get().(*png.EncoderBuffer); return b }
func (e *encoders) Put(b *png.EncoderBuffer) { e.p.Put(b) }

var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoders{}}

// Encode encodes img as PNG at the fastest compression level: a frame is
// encoded while a step waits for it, and screens compress well regardless.
func Encode(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := pngEncoder.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
