// Package model holds reprise's optional language/vision model clients: the
// Anthropic Messages API and OpenAI-compatible chat completions (which local
// servers such as Ollama, llama.cpp and vLLM speak), behind one small
// interface so every model call can be injected and scripted in tests.
//
// A model is used only when the person chose an interpretation route that
// needs one (SPEC section 10). This package sends what it is given; callers
// decide what may leave the machine, and image parts are refused unless the
// Config says pixels are allowed.
//
// An answer's text is data, never instructions: it may be wrong, truncated or
// adversarial (a page the model read can tell it what to say). Callers must
// parse it strictly, for example with [DecodeJSON], and must never act on it
// without the checks they would apply to any untrusted input.
package model

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"
)

// Model completes a conversation. Complete must be safe for concurrent use;
// it returns an *APIError for an error answer from the API, an error wrapping
// ErrEmptyAnswer when the answer has no text (the Response then still carries
// the stop reason and token counts), and errors wrapping ctx.Err() when ctx
// ends first. Errors never contain the API key or request content.
type Model interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// Request is one completion request.
type Request struct {
	// System is the system prompt; empty for none.
	System string
	// Messages alternate between RoleUser and RoleAssistant, starting with a
	// user message.
	Messages []Message
	// MaxTokens bounds the answer; zero means DefaultMaxTokens.
	MaxTokens int
}

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one turn of the conversation.
type Message struct {
	Role  string
	Parts []Part
}

// Part is either text or an image, never both. Add an image part only where
// the person's route allows pixels to reach this model; the client refuses
// images unless Config.AllowImages is set.
type Part struct {
	Text string
	// Image is the encoded image (PNG, JPEG, GIF or WebP) and MediaType its
	// type, such as "image/png".
	Image     []byte
	MediaType string
}

// Response is the model's answer.
type Response struct {
	// Text is the answer's text: untrusted data, to be parsed strictly.
	Text string
	// StopReason is the provider's own value: "end_turn", "max_tokens", ...
	// (Anthropic) or "stop", "length", ... (OpenAI-compatible).
	StopReason   string
	InputTokens  int
	OutputTokens int
}

// Truncated reports whether the answer stopped at the token limit, so that
// a caller does not mistake half an answer for a whole one.
func (r Response) Truncated() bool {
	return r.StopReason == "max_tokens" || r.StopReason == "length"
}

// Providers accepted in Config.Provider.
const (
	ProviderAnthropic = "anthropic"
	ProviderOpenAI    = "openai"
)

// Defaults filled in by New.
const (
	DefaultAnthropicURL = "https://api.anthropic.com"
	DefaultOpenAIURL    = "https://api.openai.com"
	DefaultTimeout      = 2 * time.Minute
	DefaultMaxTokens    = 1024
	// MaxResponseBytes caps a response body; a larger one is refused with
	// ErrTooLarge rather than read into memory.
	MaxResponseBytes = 4 << 20
)

// Config selects and configures a model client.
type Config struct {
	// Provider is ProviderAnthropic or ProviderOpenAI (any OpenAI-compatible
	// server, local ones included).
	Provider string
	// BaseURL is the API's root, with or without a trailing "/v1". Empty means
	// DefaultAnthropicURL or DefaultOpenAIURL.
	BaseURL string
	// Model is the provider's model name, such as "claude-sonnet-4-5" or
	// "llava".
	Model string
	// APIKey is required for Anthropic and for api.openai.com, optional for
	// a local server. It is sent only to BaseURL and never appears in errors.
	APIKey string
	// Timeout bounds one call, its one retry included; zero means
	// DefaultTimeout. A deadline on the call's context still applies.
	Timeout time.Duration
	// AllowImages permits image parts. Set it only when the person's route
	// lets pixels reach this model (a local vision model, or
	// screenshots_to_cloud with consent).
	AllowImages bool
}

// New returns the client that cfg selects, or an error naming the field to
// fix.
func New(cfg Config) (Model, error) {
	switch cfg.Provider {
	case ProviderAnthropic:
		return NewAnthropic(cfg)
	case ProviderOpenAI:
		return NewOpenAI(cfg)
	case "":
		return nil, fmt.Errorf("model: Config.Provider is empty; set it to %q or %q", ProviderAnthropic, ProviderOpenAI)
	default:
		return nil, fmt.Errorf("model: Config.Provider %q is unknown; set it to %q or %q", cfg.Provider, ProviderAnthropic, ProviderOpenAI)
	}
}

// validate fills defaults and checks the fields both clients share. It
// returns the base URL without a trailing slash or "/v1".
func (cfg *Config) validate(defaultURL string) (*url.URL, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, fmt.Errorf("model: Config.Model is empty; set the %s model name", cfg.Provider)
	}
	if cfg.Timeout < 0 {
		return nil, fmt.Errorf("model: Config.Timeout is negative; set a positive duration or zero for %v", DefaultTimeout)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if strings.ContainsAny(cfg.APIKey, "\r\n") {
		return nil, fmt.Errorf("model: Config.APIKey contains a line break; set the key alone")
	}
	raw := cfg.BaseURL
	if raw == "" {
		raw = defaultURL
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("model: Config.BaseURL is not an http(s) URL; set it like %q", defaultURL)
	}
	// Credentials in the URL would be echoed by every transport error.
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("model: Config.BaseURL has credentials, a query or a fragment; set only scheme, host and path, and the key in Config.APIKey")
	}
	if u.Scheme == "http" && cfg.APIKey != "" && !isLoopback(u.Hostname()) {
		return nil, fmt.Errorf("model: Config.BaseURL uses plain http to %s with an API key; use https", u.Hostname())
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/v1")
	u.RawPath = ""
	return u, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
