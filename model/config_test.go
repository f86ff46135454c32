package model

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestNewValidates(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want string // a substring of the error; empty for success
	}{
		{"no provider", Config{Model: "m"}, "Config.Provider is empty"},
		{"unknown provider", Config{Provider: "gemini", Model: "m"}, "Config.Provider \"gemini\" is unknown"},
		{"anthropic no key", Config{Provider: ProviderAnthropic, Model: "m"}, "Config.APIKey is empty"},
		{"anthropic no model", Config{Provider: ProviderAnthropic, APIKey: testKey}, "Config.Model is empty"},
		{"anthropic ok", Config{Provider: ProviderAnthropic, Model: "m", APIKey: testKey}, ""},
		{"openai cloud no key", Config{Provider: ProviderOpenAI, Model: "m"}, "Config.APIKey is empty"},
		{"openai local no key", Config{Provider: ProviderOpenAI, Model: "llava", BaseURL: "http://localhost:11434"}, ""},
		{"openai local v1", Config{Provider: ProviderOpenAI, Model: "llava", BaseURL: "http://127.0.0.1:8080/v1/"}, ""},
		{"bad url", Config{Provider: ProviderOpenAI, Model: "m", BaseURL: "localhost:11434"}, "Config.BaseURL is not an http(s) URL"},
		{"ftp url", Config{Provider: ProviderOpenAI, Model: "m", BaseURL: "ftp://host"}, "Config.BaseURL is not an http(s) URL"},
		{"credentials in url", Config{Provider: ProviderOpenAI, Model: "m", BaseURL: "https://user:" + testKey + "@host"}, "Config.BaseURL has credentials"},
		{"query in url", Config{Provider: ProviderOpenAI, Model: "m", BaseURL: "https://host/?key=" + testKey}, "Config.BaseURL has credentials"},
		{"plain http with key", Config{Provider: ProviderAnthropic, Model: "m", APIKey: testKey, BaseURL: "http://192.168.1.5:8080"}, "use https"},
		{"loopback http with key", Config{Provider: ProviderOpenAI, Model: "m", APIKey: testKey, BaseURL: "http://[::1]:8080"}, ""},
		{"negative timeout", Config{Provider: ProviderAnthropic, Model: "m", APIKey: testKey, Timeout: -time.Second}, "Config.Timeout is negative"},
		{"key with newline", Config{Provider: ProviderAnthropic, Model: "m", APIKey: testKey + "\n"}, "Config.APIKey contains a line break"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := New(c.cfg)
			if c.want == "" {
				if err != nil || m == nil {
					t.Errorf("New(%s) = %v, %v; want a client", c.name, m, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("New(%s) error = %v; want one containing %q", c.name, err, c.want)
			}
			checkErrorClean(t, err)
		})
	}
}

func TestRequestCheck(t *testing.T) {
	text := []Part{{Text: "hi"}}
	img := Part{Image: pngBytes, MediaType: "image/png"}
	cases := []struct {
		name string
		req  Request
		want string
	}{
		{"no messages", Request{}, "Request.Messages is empty"},
		{"bad role", Request{Messages: []Message{{Role: "system", Parts: text}}}, "role must be"},
		{"no parts", Request{Messages: []Message{{Role: RoleUser}}}, "has no parts"},
		{"empty part", Request{Messages: []Message{{Role: RoleUser, Parts: []Part{{Text: " "}}}}}, "is empty"},
		{"text and image", Request{Messages: []Message{{Role: RoleUser, Parts: []Part{{Text: canary, Image: pngBytes, MediaType: "image/png"}}}}}, "both text and an image"},
		{"bad media type", Request{Messages: []Message{{Role: RoleUser, Parts: []Part{{Image: pngBytes, MediaType: "image/bmp"}}}}}, "media type must be"},
		{"assistant image", Request{Messages: []Message{{Role: RoleAssistant, Parts: []Part{img}}}}, "only user messages"},
		{"negative max tokens", Request{MaxTokens: -1, Messages: []Message{{Role: RoleUser, Parts: text}}}, "MaxTokens is negative"},
	}
	for _, c := range cases {
		_, err := c.req.check(true)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("check(%s) = %v; want an error containing %q", c.name, err, c.want)
		}
		checkErrorClean(t, err)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
	}{
		{"", 0}, {"7", 7 * time.Second}, {" 7 ", 7 * time.Second}, {"0", 0}, {"-3", 0}, {"soon", 0},
		{"999999999", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
	}
	for _, c := range cases {
		if got := retryAfter(c.in, now); got != c.want {
			t.Errorf("retryAfter(%q) = %v; want %v", c.in, got, c.want)
		}
	}
}
