package model

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"
)

const answerText = `The step fills the field labelled "Invoice number".`

// completeCase is one scripted exchange; files are under testdata/<provider>/.
type completeCase struct {
	name          string
	replies       []reply
	wantText      string
	wantErr       error // a sentinel, or nil
	wantStatus    int   // an *APIError with this status
	wantRetryable bool
	wantType      string
	wantHits      int // zero means 1
}

// sharedCases hold for both providers.
func sharedCases() []completeCase {
	huge := bytes.Repeat([]byte(" "), MaxResponseBytes+1)
	return []completeCase{
		{name: "text", replies: []reply{{file: "text.json"}}, wantText: answerText},
		{name: "no content type", replies: []reply{{file: "text.json", contentType: "-"}}, wantText: answerText},
		{name: "malformed", replies: []reply{{file: "malformed.json"}}, wantErr: ErrBadResponse},
		{name: "truncated json", replies: []reply{{file: "truncated.json"}}, wantErr: ErrBadResponse},
		{name: "connection cut", replies: []reply{{file: "text.json", shortBy: 100}}, wantErr: ErrBadResponse},
		{name: "huge declared", replies: []reply{{body: huge, header: map[string]string{"Content-Length": strconv.Itoa(len(huge))}}}, wantErr: ErrTooLarge},
		{name: "huge chunked", replies: []reply{{body: huge}}, wantErr: ErrTooLarge},
		{name: "html", replies: []reply{{body: []byte("<html>login</html>"), contentType: "text/html"}}, wantErr: ErrBadResponse},
		{name: "400", replies: []reply{{status: 400, file: "error_400.json"}}, wantStatus: 400, wantType: "invalid_request_error"},
		{name: "401", replies: []reply{{status: 401, file: "error_401.json"}}, wantStatus: 401},
		{name: "429 then ok", replies: []reply{
			{status: 429, file: "error_429.json", header: map[string]string{"Retry-After": "1"}}, {file: "text.json"},
		}, wantText: answerText, wantHits: 2},
		{name: "429 long wait", replies: []reply{
			{status: 429, file: "error_429.json", header: map[string]string{"Retry-After": "120"}},
		}, wantStatus: 429, wantRetryable: true},
		{name: "429 no retry-after", replies: []reply{{status: 429, file: "error_429.json"}}, wantStatus: 429},
		{name: "500 then ok", replies: []reply{{status: 500, file: "error_500.json"}, {file: "text.json"}}, wantText: answerText, wantHits: 2},
		{name: "500 twice", replies: []reply{{status: 500, file: "error_500.json"}}, wantStatus: 500, wantRetryable: true, wantType: "server_error|api_error", wantHits: 2},
		{name: "502 html", replies: []reply{{status: 502, body: []byte("<html>bad gateway</html>"), contentType: "text/html"}}, wantStatus: 502, wantRetryable: true, wantHits: 2},
		{name: "redirect", replies: []reply{{status: 307, header: map[string]string{"Location": "http://127.0.0.2:9/steal"}}}, wantStatus: 307},
	}
}

func runComplete(t *testing.T, provider string, cases []completeCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i := range c.replies {
				if c.replies[i].file != "" {
					c.replies[i].file = provider + "/" + c.replies[i].file
				}
			}
			srv := newReplay(t, c.replies...)
			m := newTestModel(t, provider, srv.URL)
			resp, err := m.Complete(t.Context(), textRequest())
			checkErrorClean(t, err)
			if hits := len(srv.requests()); hits != max(c.wantHits, 1) {
				t.Errorf("server saw %d requests; want %d", hits, max(c.wantHits, 1))
			}
			switch {
			case c.wantErr != nil:
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("Complete() error = %v; want %v", err, c.wantErr)
				}
			case c.wantStatus != 0:
				e, ok := errors.AsType[*APIError](err)
				if !ok {
					t.Fatalf("Complete() error = %v; want an *APIError", err)
				}
				if e.StatusCode != c.wantStatus || e.Retryable != c.wantRetryable || e.Provider != provider {
					t.Errorf("APIError = %+v; want status %d, retryable %v", e, c.wantStatus, c.wantRetryable)
				}
				if c.wantType != "" && !bytes.Contains([]byte(c.wantType), []byte(e.Type)) {
					t.Errorf("APIError.Type = %q; want %q", e.Type, c.wantType)
				}
			default:
				if err != nil {
					t.Fatalf("Complete() error = %v", err)
				}
				if resp.Text != c.wantText {
					t.Errorf("Complete().Text = %q; want %q", resp.Text, c.wantText)
				}
			}
		})
	}
}

func newTestModel(t *testing.T, provider, url string, opts ...func(*Config)) Model {
	t.Helper()
	cfg := Config{Provider: provider, BaseURL: url, Model: "test-model", APIKey: testKey}
	for _, o := range opts {
		o(&cfg)
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	switch m := m.(type) {
	case *Anthropic:
		fast(m.ep)
	case *OpenAI:
		fast(m.ep)
	}
	return m
}

func TestCompleteShared(t *testing.T) {
	for _, p := range []string{ProviderAnthropic, ProviderOpenAI} {
		t.Run(p, func(t *testing.T) { runComplete(t, p, sharedCases()) })
	}
}

func TestAPIErrorDetails(t *testing.T) {
	for _, p := range []string{ProviderAnthropic, ProviderOpenAI} {
		t.Run(p, func(t *testing.T) {
			srv := newReplay(t, reply{status: 429, file: p + "/error_429.json", header: map[string]string{"Retry-After": "120"}})
			_, err := newTestModel(t, p, srv.URL).Complete(t.Context(), textRequest())
			e, ok := errors.AsType[*APIError](err)
			if !ok || e.RetryAfter != 2*time.Minute {
				t.Fatalf("Complete() error = %v; want an *APIError with RetryAfter 2m", err)
			}
			if want := "a retry may help after 2m0s"; !bytes.Contains([]byte(err.Error()), []byte(want)) {
				t.Errorf("Error() = %q; want it to contain %q", err, want)
			}

			srv = newReplay(t, reply{status: 401, file: p + "/error_401.json"})
			_, err = newTestModel(t, p, srv.URL).Complete(t.Context(), textRequest())
			e, ok = errors.AsType[*APIError](err)
			if !ok || !bytes.Contains([]byte(e.Message), []byte("[redacted]")) {
				t.Fatalf("Complete() error = %v; want an *APIError whose Message redacts the key", err)
			}
			if want := "check Config.APIKey"; !bytes.Contains([]byte(err.Error()), []byte(want)) {
				t.Errorf("Error() = %q; want it to contain %q", err, want)
			}
		})
	}
}

func TestSlowServer(t *testing.T) {
	for _, p := range []string{ProviderAnthropic, ProviderOpenAI} {
		t.Run(p+"/ctx", func(t *testing.T) {
			srv := newReplay(t, reply{file: p + "/text.json", delay: 10 * time.Second})
			start := time.Now()
			_, err := newTestModel(t, p, srv.URL).Complete(ctxWithin(t, 100*time.Millisecond), textRequest())
			checkSlow(t, err, start, context.DeadlineExceeded)
		})
		t.Run(p+"/config", func(t *testing.T) {
			srv := newReplay(t, reply{file: p + "/text.json", delay: 10 * time.Second})
			start := time.Now()
			m := newTestModel(t, p, srv.URL, func(c *Config) { c.Timeout = 100 * time.Millisecond })
			_, err := m.Complete(t.Context(), textRequest())
			checkSlow(t, err, start, context.DeadlineExceeded)
		})
		t.Run(p+"/retry-after beyond deadline", func(t *testing.T) {
			srv := newReplay(t, reply{status: 429, file: p + "/error_429.json", header: map[string]string{"Retry-After": "5"}})
			start := time.Now()
			_, err := newTestModel(t, p, srv.URL).Complete(ctxWithin(t, 300*time.Millisecond), textRequest())
			if e, ok := errors.AsType[*APIError](err); !ok || e.StatusCode != 429 {
				t.Fatalf("Complete() error = %v; want the 429", err)
			}
			if d := time.Since(start); d > 250*time.Millisecond {
				t.Errorf("Complete() took %v; want no wait for a retry past the deadline", d)
			}
		})
		t.Run(p+"/cancel while waiting", func(t *testing.T) {
			srv := newReplay(t, reply{status: 503, file: p + "/error_500.json"})
			m := newTestModel(t, p, srv.URL)
			switch m := m.(type) {
			case *Anthropic:
				m.ep.backoff = 10 * time.Second
			case *OpenAI:
				m.ep.backoff = 10 * time.Second
			}
			ctx, cancel := context.WithCancel(t.Context())
			time.AfterFunc(100*time.Millisecond, cancel)
			start := time.Now()
			_, err := m.Complete(ctx, textRequest())
			checkSlow(t, err, start, context.Canceled)
			if e, ok := errors.AsType[*APIError](err); !ok || e.StatusCode != 503 {
				t.Errorf("Complete() error = %v; want it to wrap the 503", err)
			}
		})
	}
}

func checkSlow(t *testing.T, err error, start time.Time, want error) {
	t.Helper()
	checkErrorClean(t, err)
	if !errors.Is(err, want) {
		t.Errorf("Complete() error = %v; want %v", err, want)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Complete() took %v; want it to stop at the deadline", d)
	}
}

func TestImagesNotAllowed(t *testing.T) {
	for _, p := range []string{ProviderAnthropic, ProviderOpenAI} {
		srv := newReplay(t, reply{file: p + "/text.json"})
		req := imageRequest()
		_, err := newTestModel(t, p, srv.URL).Complete(t.Context(), req)
		if !errors.Is(err, ErrImagesNotAllowed) {
			t.Errorf("%s: Complete(image) error = %v; want ErrImagesNotAllowed", p, err)
		}
		if n := len(srv.requests()); n != 0 {
			t.Errorf("%s: server saw %d requests; want none", p, n)
		}
	}
}

func TestConcurrentComplete(t *testing.T) {
	for _, p := range []string{ProviderAnthropic, ProviderOpenAI} {
		srv := newReplay(t, reply{file: p + "/text.json"})
		m := newTestModel(t, p, srv.URL)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if _, err := m.Complete(t.Context(), textRequest()); err != nil {
					t.Errorf("%s: Complete() error = %v", p, err)
				}
			})
		}
		wg.Wait()
	}
}

// pngBytes is a 1x1 PNG.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

func imageRequest() Request {
	return Request{
		System: "Name the field the pointer is on.",
		Messages: []Message{{Role: RoleUser, Parts: []Part{
			{Image: pngBytes, MediaType: "image/png"},
			{Text: "Which field is this?"},
		}}},
		MaxTokens: 200,
	}
}
