package model

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"testing"
)

func TestAnthropicCases(t *testing.T) {
	runComplete(t, ProviderAnthropic, []completeCase{
		{name: "two text blocks", replies: []reply{{file: "two_blocks.json"}}, wantText: `{"label": "Invoice number"}`},
		{name: "empty content", replies: []reply{{file: "empty_content.json"}}, wantErr: ErrEmptyAnswer},
		{name: "blank text", replies: []reply{{file: "blank_text.json"}}, wantErr: ErrEmptyAnswer},
		{name: "wrong shape", replies: []reply{{file: "wrong_shape.json"}}, wantErr: ErrBadResponse},
		{name: "529", replies: []reply{{status: 529, file: "error_529.json"}}, wantStatus: 529, wantRetryable: true, wantType: "overloaded_error", wantHits: 2},
		// A type that is not an identifier is dropped, so Error() never carries server text.
		{name: "odd error type", replies: []reply{{status: 400, file: "error_bad_type.json"}}, wantStatus: 400, wantType: ""},
	})
}

func TestAnthropicAnswer(t *testing.T) {
	srv := newReplay(t, reply{file: "anthropic/two_blocks.json"})
	resp, err := newTestModel(t, ProviderAnthropic, srv.URL).Complete(t.Context(), textRequest())
	if err != nil {
		t.Fatal(err)
	}
	want := Response{Text: `{"label": "Invoice number"}`, StopReason: "max_tokens", InputTokens: 40, OutputTokens: 1024}
	if resp != want || !resp.Truncated() {
		t.Errorf("Complete() = %+v; want %+v, truncated", resp, want)
	}
}

// TestAnthropicRequestShape checks what reaches the server for an image
// request: path, headers, and the documented body.
func TestAnthropicRequestShape(t *testing.T) {
	srv := newReplay(t, reply{file: "anthropic/text.json"})
	m := newTestModel(t, ProviderAnthropic, srv.URL+"/", func(c *Config) { c.AllowImages = true })
	if _, err := m.Complete(t.Context(), imageRequest()); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("server saw %d requests; want 1", len(reqs))
	}
	r := reqs[0]
	if r.method != "POST" || r.path != "/v1/messages" {
		t.Errorf("request = %s %s; want POST /v1/messages", r.method, r.path)
	}
	for k, want := range map[string]string{"X-Api-Key": testKey, "Anthropic-Version": "2023-06-01", "Content-Type": "application/json"} {
		if got := r.header.Get(k); got != want {
			t.Errorf("header %s = %q; want %q", k, got, want)
		}
	}
	if got := r.header.Get("Authorization"); got != "" {
		t.Errorf("Authorization = %q; want none", got)
	}
	var body struct {
		Model     string `json:"model"`
		MaxTokens int    `json:"max_tokens"`
		System    string `json:"system"`
		Messages  []struct {
			Role    string `json:"role"`
			Content []struct {
				Type   string `json:"type"`
				Text   string `json:"text"`
				Source struct {
					Type      string `json:"type"`
					MediaType string `json:"media_type"`
					Data      string `json:"data"`
				} `json:"source"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Model != "test-model" || body.MaxTokens != 200 || body.System != "Name the field the pointer is on." {
		t.Errorf("body = %+v; want model, max_tokens 200 and the system prompt", body)
	}
	if len(body.Messages) != 1 || body.Messages[0].Role != "user" || len(body.Messages[0].Content) != 2 {
		t.Fatalf("messages = %+v; want one user message with two blocks", body.Messages)
	}
	img, txt := body.Messages[0].Content[0], body.Messages[0].Content[1]
	data, err := base64.StdEncoding.DecodeString(img.Source.Data)
	if img.Type != "image" || img.Source.Type != "base64" || img.Source.MediaType != "image/png" || err != nil || string(data) != string(pngBytes) {
		t.Errorf("image block = %+v; want base64 image/png of the PNG", img)
	}
	if txt.Type != "text" || txt.Text != "Which field is this?" {
		t.Errorf("text block = %+v; want the question", txt)
	}
}

func TestAnthropicDefaultMaxTokens(t *testing.T) {
	srv := newReplay(t, reply{file: "anthropic/text.json"})
	if _, err := newTestModel(t, ProviderAnthropic, srv.URL).Complete(t.Context(), textRequest()); err != nil {
		t.Fatal(err)
	}
	var body struct {
		MaxTokens int `json:"max_tokens"`
	}
	if err := json.Unmarshal(srv.requests()[0].body, &body); err != nil || body.MaxTokens != DefaultMaxTokens {
		t.Errorf("max_tokens = %d (%v); want %d", body.MaxTokens, err, DefaultMaxTokens)
	}
}

func TestAnthropicEmptyKeepsUsage(t *testing.T) {
	srv := newReplay(t, reply{file: "anthropic/empty_content.json"})
	resp, err := newTestModel(t, ProviderAnthropic, srv.URL).Complete(t.Context(), textRequest())
	if !errors.Is(err, ErrEmptyAnswer) || resp.InputTokens != 40 || resp.StopReason != "end_turn" {
		t.Errorf("Complete() = %+v, %v; want usage and stop reason with ErrEmptyAnswer", resp, err)
	}
}
