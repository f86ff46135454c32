package model

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// OpenAI is a client for OpenAI-compatible chat completions: api.openai.com
// or a local server such as Ollama, llama.cpp or vLLM.
type OpenAI struct {
	model       string
	chatURL     string
	modelsURL   string
	allowImages bool
	ep          *endpoint
}

var _ Model = (*OpenAI)(nil)

// NewOpenAI returns a chat completions client, or an error naming the Config
// field to fix. The key is optional except for api.openai.com.
func NewOpenAI(cfg Config) (*OpenAI, error) {
	cfg.Provider = ProviderOpenAI
	base, err := cfg.validate(DefaultOpenAIURL)
	if err != nil {
		return nil, err
	}
	if cfg.APIKey == "" && base.Hostname() == "api.openai.com" {
		return nil, fmt.Errorf("model: Config.APIKey is empty; set an OpenAI API key, or Config.BaseURL to a local server")
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	if cfg.APIKey != "" {
		h.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	return &OpenAI{
		model:       cfg.Model,
		chatURL:     base.JoinPath("v1", "chat", "completions").String(),
		modelsURL:   base.JoinPath("v1", "models").String(),
		allowImages: cfg.AllowImages,
		ep:          newEndpoint(ProviderOpenAI, cfg, h, openAIError),
	}, nil
}

type openAIRequest struct {
	Model string `json:"model"`
	// max_tokens rather than max_completion_tokens: local servers know it.
	MaxTokens int             `json:"max_tokens"`
	Messages  []openAIMessage `json:"messages"`
}

type openAIMessage struct {
	Role string `json:"role"`
	// Content is a string, or []openAIPart when the message has an image.
	Content any `json:"content"`
}

type openAIPart struct {
	Type     string          `json:"type"`
	Text     string          `json:"text,omitempty"`
	ImageURL *openAIImageURL `json:"image_url,omitempty"`
}

type openAIImageURL struct {
	URL string `json:"url"`
}

type openAIResponse struct {
	Choices []struct {
		Message struct {
			// Content is a string, null, or (some servers) an array of parts.
			Content json.RawMessage `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// Complete sends req as a chat completion. It is safe for concurrent use.
func (o *OpenAI) Complete(ctx context.Context, req Request) (Response, error) {
	maxTokens, err := req.check(o.allowImages)
	if err != nil {
		return Response{}, err
	}
	body := openAIRequest{Model: o.model, MaxTokens: maxTokens}
	if req.System != "" {
		body.Messages = append(body.Messages, openAIMessage{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		body.Messages = append(body.Messages, openAIMessage{Role: m.Role, Content: openAIContent(m.Parts)})
	}
	buf, err := json.Marshal(body)
	if err != nil {
		return Response{}, fmt.Errorf("model: openai: encode request: %w", err)
	}
	data, err := o.ep.call(ctx, http.MethodPost, o.chatURL, buf)
	if err != nil {
		return Response{}, err
	}
	var r openAIResponse
	if err := decodeBody(ProviderOpenAI, data, &r); err != nil {
		return Response{}, err
	}
	// Some servers answer an error object with status 200.
	if typ, _ := openAIError(data); typ != "" {
		return Response{}, badResponse(ProviderOpenAI, fmt.Sprintf("an error object (%s) with status 200", cleanType(typ)))
	}
	out := Response{InputTokens: r.Usage.PromptTokens, OutputTokens: r.Usage.CompletionTokens}
	if len(r.Choices) == 0 {
		return out, fmt.Errorf("%w (openai: no choices)", ErrEmptyAnswer)
	}
	c := r.Choices[0]
	out.StopReason = c.FinishReason
	if out.Text, err = openAIText(c.Message.Content); err != nil {
		return Response{}, err
	}
	if strings.TrimSpace(out.Text) == "" {
		return out, fmt.Errorf("%w (openai, finish reason %q)", ErrEmptyAnswer, cleanType(c.FinishReason))
	}
	return out, nil
}

// openAIContent is a plain string for text-only messages, which every
// compatible server accepts, and an array of parts when there is an image.
func openAIContent(parts []Part) any {
	var texts []string
	var out []openAIPart
	for _, p := range parts {
		if len(p.Image) == 0 {
			texts = append(texts, p.Text)
			out = append(out, openAIPart{Type: "text", Text: p.Text})
			continue
		}
		url := "data:" + p.MediaType + ";base64," + base64.StdEncoding.EncodeToString(p.Image)
		out = append(out, openAIPart{Type: "image_url", ImageURL: &openAIImageURL{URL: url}})
	}
	if len(texts) == len(parts) {
		return strings.Join(texts, "\n")
	}
	return out
}

// openAIText reads message content given as a string, null, or an array of
// {"type":"text","text":...} parts.
func openAIText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", badResponse(ProviderOpenAI, "message content is neither a string nor parts")
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

// Ping checks that the server is configured and answering: GET /v1/models
// must answer 2xx with a JSON object. The route probe uses it to decide
// whether a local vision model is available.
func (o *OpenAI) Ping(ctx context.Context) error {
	// No retry: a probe that needs one has its answer already.
	ctx, cancel := context.WithTimeout(ctx, o.ep.timeout)
	defer cancel()
	data, err := o.ep.once(ctx, http.MethodGet, o.modelsURL, nil)
	if err != nil {
		return err
	}
	var v map[string]json.RawMessage
	return decodeBody(ProviderOpenAI, data, &v)
}

// openAIError reads {"error":{"type":...,"code":...,"message":...}} and the
// {"error":"..."} some local servers send.
func openAIError(data []byte) (typ, msg string) {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &e) != nil || len(e.Error) == 0 || string(e.Error) == "null" {
		return "", ""
	}
	var obj struct {
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(e.Error, &obj) == nil {
		typ = obj.Type
		if typ == "" {
			typ = strings.Trim(string(obj.Code), `"`)
		}
		return typ, obj.Message
	}
	if json.Unmarshal(e.Error, &msg) == nil {
		return "error", msg
	}
	return "", ""
}
