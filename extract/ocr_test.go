package extract

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
	"github.com/reprise-dev/reprise/internal/chromium"
)

const formPage = `<!doctype html><html><body style="font: 28px sans-serif; margin: 40px; background: #fff">
<form><p><label for="f">First Name</label> <input id="f" size="20"></p>
<p><label for="e">Email</label> <input id="e" size="20"></p>
<p><label for="c">Company</label> <input id="c" size="20"></p></form></body></html>`

func needOCR(t *testing.T) {
	t.Helper()
	if ok, reason := OCRAvailable(context.Background()); !ok {
		t.Skip("SKIPPING OCR TEST, tesseract does not work here: " + reason)
	}
}

// launch starts headless Chromium as capture/chrome's tests do.
func launch(ctx context.Context, t *testing.T) context.Context {
	t.Helper()
	if _, err := chromium.Find(); err != nil {
		t.Skip("SKIPPING BROWSER TEST: " + err.Error())
	}
	br, err := chromium.Launch(ctx, chromium.Options{ProfileDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(br.Close)
	actx, acancel := remote.NewAllocator(ctx, br.DevTools)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

func TestOCRFormFrame(t *testing.T) {
	needOCR(t)
	ctx := launch(t.Context(), t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, formPage)
	}))
	defer site.Close()
	if err := chromedp.Do(ctx, chromedp.Navigate(site.URL), chromedp.WaitVisible("#c")); err != nil {
		t.Fatal(err)
	}
	frames := map[string]chromedp.Action[[]byte]{
		"png":  chromedp.CaptureScreenshot(),
		"jpeg": chromedp.FullScreenshot(80),
	}
	for name, shot := range frames {
		img, err := chromedp.Run(ctx, shot)
		if err != nil {
			t.Fatal(err)
		}
		const runs = 3
		var res OCRResult
		start := time.Now()
		for range runs {
			if res, err = OCR(t.Context(), img); err != nil {
				t.Fatalf("OCR(%s frame) = %v", name, err)
			}
		}
		t.Logf("OCR of a %d-byte %s frame: %v per frame, %d words", len(img), name, time.Since(start)/runs, len(res.Words))
		text := strings.ToLower(res.Text())
		for _, label := range []string{"first name", "email", "company"} {
			if !strings.Contains(text, label) {
				t.Errorf("OCR(%s frame).Text() = %q; want it to contain %q", name, text, label)
			}
		}
	}
}

func TestOCRBlankFrame(t *testing.T) {
	needOCR(t)
	m := image.NewRGBA(image.Rect(0, 0, 400, 300))
	draw.Draw(m, m.Bounds(), image.NewUniform(color.RGBA{0xf0, 0xf4, 0xf8, 0xff}), image.Point{}, draw.Src)
	draw.Draw(m, image.Rect(50, 50, 350, 120), image.NewUniform(color.RGBA{0x20, 0x60, 0xc0, 0xff}), image.Point{}, draw.Src)
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	res, err := OCR(t.Context(), buf.Bytes())
	if err != nil || len(res.Words) != 0 {
		t.Errorf("OCR(blank frame) = %q, %v; want no words and no error", res.Text(), err)
	}
}

func TestOCRRefusesNonImages(t *testing.T) {
	bigPNG := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, MaxImageBytes)...)
	// A small PNG whose header declares 100000x100000 pixels, with a
	// correct checksum so that only the size gives it away.
	var bomb bytes.Buffer
	_ = png.Encode(&bomb, image.NewGray(image.Rect(0, 0, 1, 1)))
	b := bomb.Bytes()
	copy(b[16:24], []byte{0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0})
	binary.BigEndian.PutUint32(b[29:33], crc32.ChecksumIEEE(b[12:29]))
	if _, err := OCR(t.Context(), b); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("OCR(100000x100000 PNG) = %v; want a too large error", err)
	}
	for name, in := range map[string][]byte{
		"empty":       nil,
		"text":        []byte("/etc/passwd\n"),
		"pdf":         []byte("%PDF-1.4\n"),
		"png header":  []byte("\x89PNG\r\n\x1a\nnot really"),
		"jpeg header": []byte("\xff\xd8\xff\xe0 broken"),
		"too big":     bigPNG,
		"huge pixels": b,
	} {
		_, err := OCR(t.Context(), in)
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("OCR(%s) = %v; want ErrBadInput", name, err)
		}
	}
}
