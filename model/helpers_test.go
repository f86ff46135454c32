package model

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// testKey stands for a real key; it must never appear in an error string.
const testKey = "sk-ant-test-SECRET-0123456789"

// canary is request content; it must never appear in an error string either.
const canary = "PROMPT-CANARY-42"

// reply is one scripted HTTP answer.
type reply struct {
	status      int               // zero means 200
	file        string            // under testdata/
	body        []byte            // instead of file
	contentType string            // zero means application/json; "-" for none
	header      map[string]string // extra response headers
	delay       time.Duration     // before answering, unless the request ends
	shortBy     int               // declare a Content-Length this much longer than the body
}

// recorded is one request the replay server received.
type recorded struct {
	method, path string
	header       http.Header
	body         []byte
}

// replayServer answers requests with replies in order, repeating the last.
type replayServer struct {
	*httptest.Server
	mu      sync.Mutex
	replies []reply
	reqs    []recorded
}

func newReplay(t *testing.T, replies ...reply) *replayServer {
	t.Helper()
	for i, r := range replies {
		if r.file != "" {
			b, err := os.ReadFile(filepath.Join("testdata", r.file))
			if err != nil {
				t.Fatal(err)
			}
			replies[i].body = b
		}
	}
	s := &replayServer{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *replayServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, recorded{r.Method, r.URL.Path, r.Header.Clone(), body})
	rp := s.replies[min(len(s.reqs), len(s.replies))-1]
	s.mu.Unlock()
	if rp.delay > 0 {
		select {
		case <-time.After(rp.delay):
		case <-r.Context().Done():
			return
		}
	}
	switch rp.contentType {
	case "":
		w.Header().Set("Content-Type", "application/json")
	case "-":
		w.Header()["Content-Type"] = nil
	default:
		w.Header().Set("Content-Type", rp.contentType)
	}
	for k, v := range rp.header {
		w.Header().Set(k, v)
	}
	if rp.shortBy > 0 {
		w.Header().Set("Content-Length", strconv.Itoa(len(rp.body)+rp.shortBy))
	}
	w.WriteHeader(orDefault(rp.status, http.StatusOK))
	w.Write(rp.body)
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func (s *replayServer) requests() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.reqs...)
}

// textRequest is a one-message request carrying the canary.
func textRequest() Request {
	return Request{
		System:   "Describe the step as JSON.",
		Messages: []Message{{Role: RoleUser, Parts: []Part{{Text: "Step: fill " + canary}}}},
	}
}

// checkErrorClean fails when err's text or an APIError's message carries the
// key or request content.
func checkErrorClean(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	for _, secret := range []string{testKey, canary} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q contains %q", err, secret)
		}
	}
	if e, ok := errors.AsType[*APIError](err); ok && strings.Contains(e.Message, testKey) {
		t.Errorf("APIError.Message %q contains the key", e.Message)
	}
}

// fast shortens the wait before a retry the server gave no Retry-After for.
func fast(ep *endpoint) { ep.backoff = 10 * time.Millisecond }

// ctxWithin returns a context that ends after d.
func ctxWithin(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}
