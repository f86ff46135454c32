package daemon

import (
	"errors"
	"fmt"
	"os"

	"github.com/reprise-dev/reprise/model"
)

// ModelKeyEnv is the environment variable that holds the API key of the
// configured model: a key is never written in config.json.
const ModelKeyEnv = "REPRISE_MODEL_API_KEY"

// ModelConfig is the model a skill's `ai: on_miss` or `every_run` steps
// ask: Anthropic, or any OpenAI-compatible server (a local one included).
type ModelConfig struct {
	// Provider is "anthropic" or "openai" (any OpenAI-compatible server).
	Provider string `json:"provider"`
	// BaseURL is the API's root; empty for the provider's own.
	BaseURL string `json:"base_url"`
	// Model is the model's name there.
	Model string `json:"model"`
}

func (m ModelConfig) validate() error {
	if m == (ModelConfig{}) {
		return nil
	}
	if m.Provider != model.ProviderAnthropic && m.Provider != model.ProviderOpenAI {
		return fmt.Errorf("model.provider: %q; want %q or %q (any OpenAI-compatible server)", m.Provider, model.ProviderAnthropic, model.ProviderOpenAI)
	}
	if m.Model == "" {
		return errors.New("model.model is empty: name the model to ask")
	}
	return nil
}

// ReplayModel returns the model replay asks for a step whose ai lets one
// decide: config.json's "model" (its key from REPRISE_MODEL_API_KEY), else
// its "local_model", else nil for none. Pixels are never sent to it.
func (c Config) ReplayModel() (model.Model, error) {
	var cfg model.Config
	switch {
	case c.Model != (ModelConfig{}):
		cfg = model.Config{Provider: c.Model.Provider, BaseURL: c.Model.BaseURL, Model: c.Model.Model, APIKey: os.Getenv(ModelKeyEnv)}
	case c.LocalModel.BaseURL != "":
		cfg = model.Config{Provider: model.ProviderOpenAI, BaseURL: c.LocalModel.BaseURL, Model: c.LocalModel.Model}
	default:
		return nil, nil
	}
	m, err := model.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("config.json's model: %w", err)
	}
	return m, nil
}
