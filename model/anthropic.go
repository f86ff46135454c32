package model

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// anthropicVersion is the Messages API version this client speaks.
const anthropicVersion = "2023-06-01"

// Anthropic is a client for the Anthropic Messages API.
type Anthropic struct {
	model       string
	url         string
	allowImages bool
	ep          *endpoint
}

var _ Model = (*Anthropic)(nil)

// NewAnthropic returns a Messages API client, or an error naming the Config
// field to fix.
func NewAnthropic(cfg Config) (*Anthropic, error) {
	cfg.Provider = ProviderAnthropic
	if cfg.APIKey == "" {
		return nil, fmt.Errorf("model: Config.APIKey is empty; set an Anthropic API key")
	}
	base, err := cfg.validate(DefaultAnthropicURL)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	h.Set("x-api-key", cfg.APIKey)
	h.Set("anthropic-version", anthropicVersion)
	h.Set("content-type", "application/json")
	return &Anthropic{
		model:       cfg.Model,
		url:         base.JoinPath("v1", "messages").String(),
		allowImages: cfg.AllowImages,
		ep:          newEndpoint(ProviderAnthropic, cfg, h, anthropicError),
	}, nil
}

type anthropicRequest struct {
	Model     string             `json:"model"`
	MaxTokens int                `json:"max_tokens"`
	System    string             `json:"system,omitempty"`
	Messages  []anthropicMessage `json:"messages"`
}

type anthropicMessage struct {
	Role    string           `json:"role"`
	Content []anthropicBlock `json:"content"`
}

type anthropicBlock struct {
	Type   string           `json:"type"`
	Text   string           `json:"text,omitempty"`
	Source *anthropicSource `json:"source,omitempty"`
}

type anthropicSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type anthropicResponse struct {
	Content    []anthropicBlock `json:"content"`
	StopReason string           `json:"stop_reason"`
	Usage      struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

// Complete sends req to the Messages API. It is safe for concurrent use.
func (a *Anthropic) Complete(ctx context.Context, req Request) (Response, error) {
	maxTokens, err := req.check(a.allowImages)
	if err != nil {
		return Response{}, err
	}
	body := anthropicRequest{Model: a.model, MaxTokens: maxTokens, System: req.System}
	for _, m := range req.Messages {
		am := anthropicMessage{Role: m.Role}
		for _, p := range m.Parts {
			if len(p.Image) > 0 {
				am.Content = append(am.Content, anthropicBlock{Type: "image", Source: &anthropicSource{
					Type: "base64", MediaType: p.MediaType, Data: base64.StdEncoding.EncodeToString(p.Image),
				}})
				continue
			}
			am.Content = append(am.Content, anthropicBlock{Type: "text", Text: p.Text})
		}
		body.Messages = append(body.Messages, am)
	}
	buf, err := json.Marshal(body)
	if err != nil {
		return Response{}, fmt.Errorf("model: anthropic: encode request: %w", err)
	}
	data, err := a.ep.call(ctx, http.MethodPost, a.url, buf)
	if err != nil {
		return Response{}, err
	}
	var r anthropicResponse
	if err := decodeBody(ProviderAnthropic, data, &r); err != nil {
		return Response{}, err
	}
	// Only text blocks are answers; other block types are not asked for.
	var text strings.Builder
	for _, b := range r.Content {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	out := Response{Text: text.String(), StopReason: r.StopReason,
		InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens}
	if strings.TrimSpace(out.Text) == "" {
		return out, fmt.Errorf("%w (anthropic, stop reason %q)", ErrEmptyAnswer, cleanType(r.StopReason))
	}
	return out, nil
}

// anthropicError reads {"type":"error","error":{"type":...,"message":...}}.
func anthropicError(data []byte) (typ, msg string) {
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &e) != nil {
		return "", ""
	}
	return e.Error.Type, e.Error.Message
}
