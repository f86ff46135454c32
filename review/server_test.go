package review_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/review"
)

const wantCSP = "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

func TestStartListensOnLoopbackWithALongToken(t *testing.T) {
	s := start(t, newFake(t))
	u, err := url.Parse(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Port() == "" || u.Path != "/review" {
		t.Errorf("URL() = %q; want http://127.0.0.1:PORT/review?token=...", s.URL())
	}
	// 256 bits in unpadded base64url are 43 characters.
	if tok := u.Query().Get("token"); len(tok) != 43 || strings.ContainsAny(tok, "+/=") {
		t.Errorf("token %q: want 43 base64url characters", tok)
	}
	if _, err := review.Start(t.Context(), newFake(t), "rec_unknown", review.Options{}); err == nil {
		t.Error("Start(unknown recording) = nil error; want the Source's error")
	}
}

func TestPageHeadersAndCookie(t *testing.T) {
	s := start(t, newFake(t))
	first := do(t, "GET", s.URL(), nil, nil)
	if len(first.cookies) != 1 {
		t.Fatalf("GET URL() set %d cookies; want 1", len(first.cookies))
	}
	c := first.cookies[0]
	// The review page alone sends same-origin: under no-referrer Chromium
	// sends "Origin: null" with its form, and the apply would be refused.
	for _, tc := range []struct {
		name     string
		a        answer
		referrer string
	}{
		{"the exchange", first, "no-referrer"},
		{"the page", do(t, "GET", origin(s)+"/review", c, nil), "same-origin"},
		{"a frame", do(t, "GET", origin(s)+"/frame/1", c, nil), "no-referrer"},
		{"the stylesheet", do(t, "GET", origin(s)+"/assets/style.css", c, nil), "no-referrer"},
		{"a refusal", do(t, "GET", origin(s)+"/nope", nil, nil), "no-referrer"},
	} {
		h := tc.a.header
		if got := h.Get("Content-Security-Policy"); got != wantCSP {
			t.Errorf("%s: Content-Security-Policy = %q; want %q", tc.name, got, wantCSP)
		}
		for k, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": tc.referrer, "Cache-Control": "no-store"} {
			if got := h.Get(k); got != want {
				t.Errorf("%s: %s = %q; want %q", tc.name, k, got, want)
			}
		}
		for k := range h {
			if strings.HasPrefix(strings.ToLower(k), "access-control-") {
				t.Errorf("%s: CORS header %s set; want none", tc.name, k)
			}
		}
	}
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" {
		t.Errorf("session cookie HttpOnly=%v SameSite=%v Path=%q; want true, Strict, /", c.HttpOnly, c.SameSite, c.Path)
	}
}

func TestPageContent(t *testing.T) {
	s := start(t, newFake(t))
	c, _ := session(t, s)
	page := do(t, "GET", origin(s)+"/review", c, nil).body
	for _, want := range []string{
		"rec_review_test", "extract_then_cloud",
		"6 steps: 3 resolved in the page (DOM), 2 by accessibility, 1 with no element (<code>kind: none</code>)",
		"by the screenshot and cursor position only",
		"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;", "ada@example.com",
		`<img src="/frame/3"`, `id="remove-2"`, `id="redact-3"`, `id="apply"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, never := range []string{rawRedacted, rawSecret, scriptValue, "<script", "stub_frame_", `id="redact-4"`, `id="redact-1"`} {
		if strings.Contains(page, never) {
			t.Errorf("page contains %q", never)
		}
	}
	if n := strings.Count(page, "••••"); n != 2 {
		t.Errorf("page masks %d values; want 2 (the redacted step and the secret)", n)
	}
}

func TestFrames(t *testing.T) {
	s := start(t, newFake(t))
	c, _ := session(t, s)
	for _, tc := range []struct {
		path string
		code int
		ct   string
	}{
		{"/frame/1", http.StatusOK, "image/png"},
		{"/frame/99", http.StatusNotFound, ""},
		{"/frame/5", http.StatusNotFound, ""}, // its bytes are HTML
		{"/frame/x", http.StatusNotFound, ""},
		{"/frame/stub_frame_1", http.StatusNotFound, ""},
	} {
		a := do(t, "GET", origin(s)+tc.path, c, nil)
		if a.code != tc.code || (tc.ct != "" && a.header.Get("Content-Type") != tc.ct) {
			t.Errorf("GET %s = %d %q; want %d %q", tc.path, a.code, a.header.Get("Content-Type"), tc.code, tc.ct)
		}
	}
	if a := do(t, "GET", origin(s)+"/frame/1", nil, nil); a.code != http.StatusForbidden {
		t.Errorf("GET /frame/1 without session = %d; want 403", a.code)
	}
}

// wrong returns token with its first character changed: always another
// token ("x"+token[1:] was the token itself whenever it began with x).
func wrong(token string) string {
	if token == "" || token[0] == 'A' {
		return "B" + token[min(1, len(token)):]
	}
	return "A" + token[1:]
}

// TestRefusals is every request the rules turn away, from a client that
// otherwise behaves.
func TestRefusals(t *testing.T) {
	f := newFake(t)
	s := start(t, f)
	o := origin(s)
	u, _ := url.Parse(s.URL())
	if a := do(t, "GET", o+"/review", nil, nil); a.code != http.StatusForbidden {
		t.Errorf("GET /review with no token or cookie = %d; want 403", a.code)
	}
	if a := do(t, "GET", o+"/review?token="+wrong(u.Query().Get("token")), nil, nil); a.code != http.StatusForbidden {
		t.Errorf("GET /review with a wrong token = %d; want 403", a.code)
	}
	if a := do(t, "GET", o+"/review?token=", nil, nil); a.code != http.StatusForbidden {
		t.Errorf("GET /review with an empty token = %d; want 403", a.code)
	}
	c, csrf := session(t, s)
	if a := do(t, "GET", s.URL(), nil, nil); a.code != http.StatusForbidden {
		t.Errorf("GET URL() a second time = %d; want 403", a.code)
	}
	forged := &http.Cookie{Name: c.Name, Value: strings.Repeat("A", len(c.Value))}
	if a := do(t, "GET", o+"/review", forged, nil); a.code != http.StatusForbidden {
		t.Errorf("GET /review with a forged cookie = %d; want 403", a.code)
	}
	good := url.Values{"csrf": {csrf}, "remove": {"2"}}
	for _, tc := range []struct {
		name   string
		form   url.Values
		header []string
		want   int
	}{
		{"no CSRF token", url.Values{"remove": {"2"}}, nil, http.StatusForbidden},
		{"wrong CSRF token", url.Values{"csrf": {wrong(csrf)}, "remove": {"2"}}, nil, http.StatusForbidden},
		{"foreign Origin", good, []string{"Origin", "http://evil.example"}, http.StatusForbidden},
		{"null Origin", good, []string{"Origin", "null"}, http.StatusForbidden},
		{"no Origin nor Referer", good, []string{"Origin", ""}, http.StatusForbidden},
		{"foreign Referer", good, []string{"Origin", "", "Referer", "http://evil.example/review"}, http.StatusForbidden},
		{"wrong Host", good, []string{"Host", "evil.example:" + u.Port()}, http.StatusForbidden},
		{"localhost Host", good, []string{"Host", "localhost:" + u.Port()}, http.StatusForbidden},
		{"unknown step", url.Values{"csrf": {csrf}, "remove": {"99"}}, nil, http.StatusBadRequest},
		{"too large", url.Values{"csrf": {csrf}, "pad": {strings.Repeat("x", 70<<10)}}, nil, http.StatusRequestEntityTooLarge},
	} {
		if a := do(t, "POST", o+"/apply", c, tc.form, tc.header...); a.code != tc.want {
			t.Errorf("POST /apply with %s = %d; want %d", tc.name, a.code, tc.want)
		}
	}
	if a := do(t, "GET", o+"/review", c, nil, "Host", "attacker.example"); a.code != http.StatusForbidden {
		t.Errorf("GET /review with a rebound Host = %d; want 403", a.code)
	}
	if a := do(t, "GET", o+"/apply", c, nil); a.code != http.StatusMethodNotAllowed {
		t.Errorf("GET /apply = %d; want 405", a.code)
	}
	if n := len(f.calls()); n != 0 {
		t.Fatalf("the Source applied %d reviews from refused requests; want 0", n)
	}

	// The one good apply, then its replay.
	if a := do(t, "POST", o+"/apply", c, good); a.code != http.StatusOK || !strings.Contains(a.body, "Review applied: 5 steps kept") {
		t.Fatalf("POST /apply = %d %q; want 200 and the confirmation", a.code, a.body)
	}
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done() not closed after apply")
	}
	for _, a := range []answer{
		do(t, "POST", o+"/apply", c, good),
		do(t, "GET", o+"/assets/style.css", nil, nil),
		do(t, "GET", o+"/review", c, nil),
		do(t, "GET", o+"/frame/1", c, nil),
	} {
		if a.code != http.StatusGone && a.code != http.StatusForbidden {
			t.Errorf("a request after apply = %d; want 410 or 403", a.code)
		}
	}
	if got := f.calls(); len(got) != 1 || !slices.Equal(got[0].removed, []uint64{2}) {
		t.Errorf("Source.Apply calls = %v; want one, removing [2]", got)
	}
}

func TestCloseTwice(t *testing.T) {
	s := start(t, newFake(t))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close() = %v; want nil", err)
	}
	select {
	case <-s.Done():
	default:
		t.Error("Done() open after Close()")
	}
}

// TestApplyOnce: a second apply while one is in flight is refused, a failed
// apply leaves the page open, and only a success closes it.
func TestApplyOnce(t *testing.T) {
	f := newFake(t)
	entered, release := make(chan struct{}), make(chan error)
	f.hook = func() error {
		entered <- struct{}{}
		return <-release
	}
	s := start(t, f)
	c, csrf := session(t, s)
	form := url.Values{"csrf": {csrf}, "redact": {"3", "3", "6"}}
	first := make(chan answer, 1)
	post := func() { first <- do(t, "POST", origin(s)+"/apply", c, form) }

	go post()
	<-entered
	if a := do(t, "POST", origin(s)+"/apply", c, form); a.code != http.StatusConflict {
		t.Errorf("POST /apply while one is in flight = %d; want 409", a.code)
	}
	release <- errors.New("daemon unreachable")
	if a := <-first; a.code != http.StatusBadGateway || !strings.Contains(a.body, "daemon unreachable") {
		t.Errorf("POST /apply when the Source fails = %d %q; want 502 with the cause", a.code, a.body)
	}
	select {
	case <-s.Done():
		t.Fatal("Done() closed after a failed apply")
	default:
	}

	go post()
	<-entered
	release <- nil
	if a := <-first; a.code != http.StatusOK || !strings.Contains(a.body, "Review applied: 6 steps kept") {
		t.Errorf("POST /apply after a failure = %d %q; want 200 and the confirmation", a.code, a.body)
	}
	<-s.Done()
	if got := f.calls(); len(got) != 1 || !slices.Equal(got[0].redacted, []uint64{3, 6}) || len(got[0].removed) != 0 {
		t.Errorf("Source.Apply calls = %v; want one redacting [3 6]", got)
	}
}

func TestCancelledContextCloses(t *testing.T) {
	f := newFake(t)
	ctx, cancel := context.WithCancel(t.Context())
	s, err := review.Start(ctx, f, f.rec.RecordingID, review.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cancel()
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done() open after Start's context was cancelled")
	}
}
