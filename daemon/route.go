package daemon

import (
	"context"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/extract"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/model"
)

// localModelProbe bounds the check that a configured local model answers:
// START_RECORDING waits for it.
const localModelProbe = 3 * time.Second

// router is the route probe for this machine: the browser channel resolves
// elements in the DOM, desktop_ax in the accessibility tree; OCR is
// tesseract; a local model is the one in config.json, if it answers.
func router(cfg LocalModelConfig) interpret.Prober {
	return interpret.Prober{
		Structured: func(channel string) bool {
			return channel == capture.ChannelBrowser || channel == capture.ChannelDesktopAX
		},
		OCR: extract.OCRAvailable,
		LocalVLM: func(ctx context.Context) (bool, string) {
			if cfg.BaseURL == "" {
				return false, "none configured (config.json: local_model)"
			}
			m, err := model.NewOpenAI(model.Config{Provider: model.ProviderOpenAI, BaseURL: cfg.BaseURL, Model: cfg.Model, AllowImages: true})
			if err != nil {
				return false, err.Error()
			}
			ctx, cancel := context.WithTimeout(ctx, localModelProbe)
			defer cancel()
			if err := m.Ping(ctx); err != nil {
				return false, err.Error()
			}
			return true, ""
		},
	}
}
