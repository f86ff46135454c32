// Package scripted is an OpenAI-compatible chat completions server for
// tests: each request is answered by a script (a Go function of what the
// model was asked), and every request is counted and kept, so a test can
// say how many calls a run cost and what the model was shown.
package scripted

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Request is what one call asked: the system prompt and the messages'
// texts, in order (an assistant message is a rejected answer being
// corrected).
type Request struct {
	System   string
	Messages []Message
}

// Message is one message's role and text.
type Message struct{ Role, Text string }

// Last is the last user message's text.
func (r Request) Last() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Text
		}
	}
	return ""
}

// Correcting says this call corrects a rejected answer.
func (r Request) Correcting() bool {
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			return true
		}
	}
	return false
}

// First is the first user message's text: the turn's question.
func (r Request) First() string {
	for _, m := range r.Messages {
		if m.Role == "user" {
			return m.Text
		}
	}
	return ""
}

// Server is a scripted model server.
type Server struct {
	*httptest.Server
	mu    sync.Mutex
	calls []Request
}

// New starts a server whose answers script gives. Its URL + "/v1" is an
// OpenAI-compatible base URL.
func New(t testing.TB, script func(Request) string) *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		var body struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req Request
		for _, m := range body.Messages {
			text := contentText(m.Content)
			if m.Role == "system" {
				req.System = text
				continue
			}
			req.Messages = append(req.Messages, Message{Role: m.Role, Text: text})
		}
		s.mu.Lock()
		s.calls = append(s.calls, req)
		s.mu.Unlock()
		answer := script(req)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": answer}, "finish_reason": "stop"}},
			"usage":   map[string]int{"prompt_tokens": len(req.Last()) / 4, "completion_tokens": len(answer) / 4},
		})
	}))
	t.Cleanup(s.Close)
	return s
}

// contentText is a message's text: a string, or the text parts of a list.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type, Text string
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Calls returns every request so far.
func (s *Server) Calls() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.calls...)
}

// Count is how many requests were made.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

var elementLine = regexp.MustCompile(`(?m)^(e\d+) (\S+) "((?:[^"\\]|\\.)*)"`)

// Ref returns the ref of the element of role named name in an outline the
// model was shown, or "" when none is listed.
func Ref(text, role, name string) string {
	for _, m := range elementLine.FindAllStringSubmatch(text, -1) {
		if m[2] == role && unquote(m[3]) == name {
			return m[1]
		}
	}
	return ""
}

func unquote(s string) string {
	var out string
	if err := json.Unmarshal([]byte(`"`+s+`"`), &out); err != nil {
		return s
	}
	return out
}

// Step is the step number a request asks about ("Step N of M"), 0 for
// none.
func Step(text string) int {
	var n, of int
	if i := strings.Index(text, "Step "); i >= 0 {
		fmt.Sscanf(text[i:], "Step %d of %d", &n, &of)
	}
	return n
}
