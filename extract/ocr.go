package extract

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os/exec"
	"strings"
	"sync"
	"time"
)

const (
	// MaxImageBytes is the largest frame OCR accepts.
	MaxImageBytes = 20 << 20
	// maxImagePixels refuses a small file that declares a huge image
	// (a decompression bomb) before tesseract allocates it.
	maxImagePixels = 100 << 20
	// OCRTimeout bounds one tesseract run; a form frame takes well under 1 s.
	OCRTimeout = 30 * time.Second
	// maxTSVBytes caps what is read from tesseract's stdout.
	maxTSVBytes = 16 << 20
)

const tesseractHelp = "install tesseract with English data (Debian/Ubuntu: apt-get install tesseract-ocr tesseract-ocr-eng; macOS: brew install tesseract; Windows: the UB Mannheim installer, then add it to PATH)"

// OCR recognizes the words in a frame, a PNG or JPEG image. It runs tesseract
// in a child process, bounded by OCRTimeout and by ctx.
func OCR(ctx context.Context, img []byte) (OCRResult, error) {
	if err := checkImage(img); err != nil {
		return OCRResult{}, fmt.Errorf("ocr frame: %w", err)
	}
	bin, err := exec.LookPath("tesseract")
	if err != nil {
		return OCRResult{}, fmt.Errorf("ocr frame: %w: tesseract not found on PATH: %s", ErrUnavailable, tesseractHelp)
	}
	res, err := runTesseract(ctx, bin, img)
	if err != nil {
		return OCRResult{}, fmt.Errorf("ocr frame: %w", err)
	}
	return res, nil
}

// checkImage lets through only what is plainly a PNG or JPEG of sane size:
// tesseract reads stdin that is not an image as a list of file names.
func checkImage(img []byte) error {
	if len(img) > MaxImageBytes {
		return fmt.Errorf("%w: image of %d bytes is over the %d byte limit", ErrBadInput, len(img), MaxImageBytes)
	}
	var cfg image.Config
	var err error
	switch {
	case bytes.HasPrefix(img, []byte("\x89PNG\r\n\x1a\n")):
		cfg, err = png.DecodeConfig(bytes.NewReader(img))
	case bytes.HasPrefix(img, []byte("\xff\xd8\xff")):
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(img))
	default:
		return fmt.Errorf("%w: not a PNG or JPEG image", ErrBadInput)
	}
	if err != nil {
		return fmt.Errorf("%w: unreadable image header: %v", ErrBadInput, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxImagePixels {
		return fmt.Errorf("%w: image of %dx%d pixels is empty or too large", ErrBadInput, cfg.Width, cfg.Height)
	}
	return nil
}

// runTesseract feeds the image on stdin and parses the tsv on stdout. Its
// errors carry no output of tesseract's: the image's content can show up in
// stdout and, on odd inputs, in stderr.
func runTesseract(ctx context.Context, bin string, img []byte) (OCRResult, error) {
	ctx, cancel := context.WithTimeout(ctx, OCRTimeout)
	defer cancel()
	cmd := command(ctx, bin, "stdin", "stdout", "tsv")
	// One thread is faster for a single frame than OpenMP's spin-up.
	cmd.Env = append(cmd.Env, "OMP_THREAD_LIMIT=1")
	cmd.Stdin = bytes.NewReader(img)
	out := &capWriter{max: maxTSVBytes, full: cancel}
	cmd.Stdout = out
	start := time.Now()
	err := cmd.Run()
	switch {
	case out.over:
		return OCRResult{}, fmt.Errorf("tesseract output over %d bytes", maxTSVBytes)
	case ctx.Err() != nil:
		return OCRResult{}, fmt.Errorf("tesseract stopped after %v: %w", time.Since(start).Round(time.Millisecond), context.Cause(ctx))
	case err != nil:
		return OCRResult{}, fmt.Errorf("tesseract failed: %w", err)
	}
	return ParseTSV(&out.buf)
}

var probe struct {
	sync.Mutex
	done   bool
	ok     bool
	reason string
}

// OCRAvailable reports whether OCR works here: tesseract is on PATH and reads
// a small generated image. A definite answer is cached for the process; when
// OCR does not work, reason says what to install.
func OCRAvailable(ctx context.Context) (ok bool, reason string) {
	probe.Lock()
	defer probe.Unlock()
	if probe.done {
		return probe.ok, probe.reason
	}
	ok, reason = probeTesseract(ctx)
	// A probe cut short by the caller says nothing about tesseract.
	if ctx.Err() == nil {
		probe.done, probe.ok, probe.reason = true, ok, reason
	}
	return ok, reason
}

func probeTesseract(ctx context.Context) (bool, string) {
	bin, err := exec.LookPath("tesseract")
	if err != nil {
		return false, "tesseract not found on PATH: " + tesseractHelp
	}
	var img bytes.Buffer
	m := image.NewGray(image.Rect(0, 0, 64, 32))
	for i := range m.Pix {
		m.Pix[i] = 0xff
	}
	_ = png.Encode(&img, m) // cannot fail on an in-memory image
	ctx, cancel := context.WithTimeout(ctx, OCRTimeout)
	defer cancel()
	cmd := command(ctx, bin, "stdin", "stdout", "tsv")
	cmd.Env = append(cmd.Env, "OMP_THREAD_LIMIT=1")
	cmd.Stdin = &img
	// The probe image is ours, so tesseract's complaint is safe to show.
	stderr := &capWriter{max: 4 << 10}
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		msg := oneLine(stderr.buf.String())
		return false, fmt.Sprintf("tesseract at %s does not work (%v: %s): %s", bin, err, msg, tesseractHelp)
	}
	if _, err := ParseTSV(bytes.NewReader(out)); err != nil {
		return false, fmt.Sprintf("tesseract at %s printed no tsv (%v): %s", bin, err, tesseractHelp)
	}
	return true, "tesseract at " + bin
}

// oneLine folds a child's stderr into a short single line for a reason.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
