package model

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"testing"
)

func TestOpenAICases(t *testing.T) {
	runComplete(t, ProviderOpenAI, []completeCase{
		{name: "parts content", replies: []reply{{file: "parts_content.json"}}, wantText: "Invoice number"},
		{name: "empty choices", replies: []reply{{file: "empty_choices.json"}}, wantErr: ErrEmptyAnswer},
		{name: "null content", replies: []reply{{file: "null_content.json"}}, wantErr: ErrEmptyAnswer},
		{name: "wrong content", replies: []reply{{file: "wrong_content.json"}}, wantErr: ErrBadResponse},
		{name: "error string", replies: []reply{{status: 404, file: "error_string.json"}}, wantStatus: 404, wantType: "error"},
		{name: "error with 200", replies: []reply{{file: "error_200.json"}}, wantErr: ErrBadResponse},
	})
}

func TestOpenAIAnswer(t *testing.T) {
	srv := newReplay(t, reply{file: "openai/text.json"})
	resp, err := newTestModel(t, ProviderOpenAI, srv.URL).Complete(t.Context(), textRequest())
	want := Response{Text: answerText, StopReason: "stop", InputTokens: 620, OutputTokens: 14}
	if err != nil || resp != want || resp.Truncated() {
		t.Errorf("Complete() = %+v, %v; want %+v", resp, err, want)
	}
}

// TestOpenAIRequestShape checks the image request a local vision server
// receives, and that no Authorization header goes out without a key.
func TestOpenAIRequestShape(t *testing.T) {
	srv := newReplay(t, reply{file: "openai/text.json"})
	m := newTestModel(t, ProviderOpenAI, srv.URL+"/v1/", func(c *Config) { c.AllowImages, c.APIKey = true, "" })
	req := imageRequest()
	req.Messages = append(req.Messages,
		Message{Role: RoleAssistant, Parts: []Part{{Text: "The total."}}},
		Message{Role: RoleUser, Parts: []Part{{Text: "Sure?"}, {Text: "Answer in JSON."}}})
	if _, err := m.Complete(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	r := srv.requests()[0]
	if r.method != "POST" || r.path != "/v1/chat/completions" {
		t.Errorf("request = %s %s; want POST /v1/chat/completions", r.method, r.path)
	}
	if got := r.header.Get("Authorization"); got != "" {
		t.Errorf("Authorization = %q; want none without a key", got)
	}
	var body struct {
		Model     string            `json:"model"`
		MaxTokens int               `json:"max_tokens"`
		Messages  []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Model != "test-model" || body.MaxTokens != 200 || len(body.Messages) != 4 {
		t.Fatalf("body = %s; want model, max_tokens 200 and four messages", r.body)
	}
	wants := []string{
		`{"role":"system","content":"Name the field the pointer is on."}`,
		`{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4DwAAAQEABRjYTgAAAABJRU5ErkJggg=="}},{"type":"text","text":"Which field is this?"}]}`,
		`{"role":"assistant","content":"The total."}`,
		`{"role":"user","content":"Sure?\nAnswer in JSON."}`,
	}
	for i, want := range wants {
		if got := string(body.Messages[i]); got != want {
			t.Errorf("message %d = %s; want %s", i, got, want)
		}
	}
}

func TestOpenAIBearer(t *testing.T) {
	srv := newReplay(t, reply{file: "openai/text.json"})
	if _, err := newTestModel(t, ProviderOpenAI, srv.URL).Complete(t.Context(), textRequest()); err != nil {
		t.Fatal(err)
	}
	if got, want := srv.requests()[0].header.Get("Authorization"), "Bearer "+testKey; got != want {
		t.Errorf("Authorization = %q; want %q", got, want)
	}
}

func TestOpenAIBaseURL(t *testing.T) {
	for _, suffix := range []string{"", "/", "/v1", "/v1/", "/proxy/v1"} {
		srv := newReplay(t, reply{file: "openai/text.json"})
		if _, err := newTestModel(t, ProviderOpenAI, srv.URL+suffix).Complete(t.Context(), textRequest()); err != nil {
			t.Fatalf("BaseURL %q: %v", suffix, err)
		}
		want := "/v1/chat/completions"
		if suffix == "/proxy/v1" {
			want = "/proxy" + want
		}
		if got := srv.requests()[0].path; got != want {
			t.Errorf("BaseURL %q: path %q; want %q", suffix, got, want)
		}
	}
}

func TestPing(t *testing.T) {
	cases := []struct {
		name       string
		reply      reply
		wantErr    error
		wantStatus int
	}{
		{name: "models", reply: reply{file: "openai/models.json"}},
		{name: "not found", reply: reply{status: 404, body: []byte("404 page not found"), contentType: "text/plain"}, wantStatus: 404},
		{name: "html", reply: reply{body: []byte("<html></html>"), contentType: "text/html"}, wantErr: ErrBadResponse},
		{name: "not an object", reply: reply{body: []byte(`["llava"]`)}, wantErr: ErrBadResponse},
		{name: "401", reply: reply{status: 401, file: "openai/error_401.json"}, wantStatus: 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newReplay(t, c.reply)
			err := newTestModel(t, ProviderOpenAI, srv.URL).(*OpenAI).Ping(t.Context())
			checkErrorClean(t, err)
			if r := srv.requests(); len(r) != 1 || r[0].method != "GET" || r[0].path != "/v1/models" {
				t.Errorf("requests = %+v; want one GET /v1/models", r)
			}
			switch {
			case c.wantStatus != 0:
				if e, ok := errors.AsType[*APIError](err); !ok || e.StatusCode != c.wantStatus {
					t.Errorf("Ping() = %v; want HTTP %d", err, c.wantStatus)
				}
			case !errors.Is(err, c.wantErr):
				t.Errorf("Ping() = %v; want %v", err, c.wantErr)
			}
		})
	}
}

func TestPingUnreachable(t *testing.T) {
	srv := httptest.NewServer(nil)
	url := srv.URL
	srv.Close()
	o, err := NewOpenAI(Config{BaseURL: url, Model: "llava"})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Ping(t.Context()); err == nil {
		t.Error("Ping() to a closed server = nil; want an error")
	}
}
