package review_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/review"
)

// Raw values the fake keeps on steps the page must mask. The real daemon
// blanks redacted values; the fake does not, to prove the page never
// renders them.
const (
	rawRedacted = "RAW-REDACTED-4242"
	rawSecret   = "SECRET-TYPE-9191"
	scriptValue = `<script>alert("x")</script>`
)

// fakeSource is an in-memory daemon with one recording of six steps: three
// DOM, two accessibility, one kind none whose frame is not an image.
type fakeSource struct {
	rec    events.Recording
	frames map[string][]byte

	// hook, when set, runs at the start of Apply; its error is Apply's.
	hook func() error

	mu      sync.Mutex
	applies []applied
}

type applied struct{ removed, redacted []uint64 }

var _ review.Source = (*fakeSource)(nil)

func newFake(t testing.TB) *fakeSource {
	t.Helper()
	el := func(kind, role, label string) *events.Enrichment {
		return &events.Enrichment{Kind: kind, Role: role, Label: label, URL: "https://app.example.com/new"}
	}
	step := func(seq uint64, action string, e *events.Enrichment, v *events.Value) events.Step {
		return events.Step{Seq: seq, TS: 1712345678 + float64(seq), Actor: events.ActorHuman, Action: action,
			ScreenshotRef: fmt.Sprintf("stub_frame_%d", seq), Cursor: []int{100 * int(seq), 200},
			ActiveApp: "Chromium", ActiveWindow: "New customer", Enrichment: e, Value: v, Outcome: events.OutcomeOK}
	}
	f := &fakeSource{rec: events.Recording{
		RecordingID: "rec_review_test", Version: events.SchemaVersion, CreatedAt: 1712345678.5,
		MachineID: "m1", InterpretationRoute: "extract_then_cloud", RedactionApplied: true,
		Steps: []events.Step{
			step(1, events.ActionNavigate, el(events.KindDOM, "document", ""), nil),
			step(2, events.ActionClick, el(events.KindDOM, "button", "Save draft"), nil),
			step(3, events.ActionFill, el(events.KindDOM, "textbox", "Email"), &events.Value{Raw: "ada@example.com", Type: events.ValueEmail}),
			step(4, events.ActionFill, el(events.KindAX, "textbox", "Card number"), &events.Value{Raw: rawRedacted, Type: events.ValueText}),
			step(5, events.ActionFill, &events.Enrichment{Kind: events.KindNone}, &events.Value{Raw: scriptValue, Type: events.ValueText}),
			step(6, events.ActionFill, el(events.KindAX, "", "PIN"), &events.Value{Raw: rawSecret, Type: events.ValueSecret}),
		},
	}, frames: map[string][]byte{}}
	f.rec.Steps[3].Redacted = true
	for i, s := range f.rec.Steps {
		f.frames[s.ScreenshotRef] = frame(t, uint8(40*i))
	}
	f.frames[f.rec.Steps[4].ScreenshotRef] = []byte("<html>not an image</html>")
	return f
}

// frame draws a 320x200 PNG with a cursor-like square, tinted per step.
func frame(t testing.TB, tint uint8) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 320, 200))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{R: 230, G: 235, B: 255 - tint/2, A: 255}), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(140, 80, 180, 120), image.NewUniform(color.RGBA{R: 200, G: tint, B: 40, A: 255}), image.Point{}, draw.Src)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func (f *fakeSource) Recording(_ context.Context, id string) (*events.Recording, error) {
	if id != f.rec.RecordingID {
		return nil, errors.New("recording not found")
	}
	r := f.rec
	return &r, nil
}

func (f *fakeSource) Frame(_ context.Context, id, ref string) ([]byte, error) {
	b, ok := f.frames[ref]
	if id != f.rec.RecordingID || !ok {
		return nil, errors.New("frame not found")
	}
	return b, nil
}

func (f *fakeSource) Apply(_ context.Context, id string, removed, redacted []uint64) (int, error) {
	if id != f.rec.RecordingID {
		return 0, errors.New("recording not found")
	}
	if f.hook != nil {
		if err := f.hook(); err != nil {
			return 0, err
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applies = append(f.applies, applied{slices.Clone(removed), slices.Clone(redacted)})
	return len(f.rec.Steps) - len(removed), nil
}

func (f *fakeSource) calls() []applied {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.applies)
}

// start runs a review server on the fake and closes it with the test. Its
// log goes to the test's output, and must never hold the token or a value.
func start(t testing.TB, f *fakeSource) *review.Server {
	t.Helper()
	logs := &syncbuf.Buffer{}
	log := slog.New(slog.NewTextHandler(io.MultiWriter(logs, t.Output()), &slog.HandlerOptions{Level: slog.LevelDebug}))
	s, err := review.Start(t.Context(), f, f.rec.RecordingID, review.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.Close()
		u, _ := url.Parse(s.URL())
		for _, never := range []string{u.Query().Get("token"), rawRedacted, rawSecret, scriptValue, "ada@example.com"} {
			if strings.Contains(logs.String(), never) {
				t.Errorf("the log contains %q", never)
			}
		}
	})
	return s
}

// client never follows redirects, so each answer is seen as it is.
var client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// session opens URL() as a browser would and returns the session cookie and
// the page's CSRF token.
func session(t testing.TB, s *review.Server) (*http.Cookie, string) {
	t.Helper()
	resp := do(t, "GET", s.URL(), nil, nil)
	if resp.code != http.StatusSeeOther || resp.header.Get("Location") != "/review" {
		t.Fatalf("GET URL() = %d, Location %q; want 303 to /review", resp.code, resp.header.Get("Location"))
	}
	var c *http.Cookie
	for _, k := range resp.cookies {
		if k.Name == "reprise_review" {
			c = k
		}
	}
	if c == nil {
		t.Fatal("GET URL() set no session cookie")
	}
	page := do(t, "GET", origin(s)+"/review", c, nil)
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page.body)
	if page.code != http.StatusOK || m == nil {
		t.Fatalf("GET /review = %d with no CSRF token", page.code)
	}
	return c, m[1]
}

type answer struct {
	code    int
	header  http.Header
	cookies []*http.Cookie
	body    string
}

// do sends one request; a nil form is a GET without body. The Origin of a
// POST is the server's own unless header sets another.
func do(t testing.TB, method, u string, c *http.Cookie, form url.Values, header ...string) answer {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(t.Context(), method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "http://"+req.URL.Host)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
		if header[i+1] == "" {
			req.Header.Del(header[i])
		}
	}
	if c != nil {
		req.AddCookie(c)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, resp.Cookies(), string(b)}
}

func origin(s *review.Server) string {
	u, _ := url.Parse(s.URL())
	return "http://" + u.Host
}
