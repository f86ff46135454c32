package model

import (
	"errors"
	"fmt"
	"strings"
)

// ErrImagesNotAllowed is returned when a request carries an image part but
// Config.AllowImages is not set.
var ErrImagesNotAllowed = errors.New("model: image parts are not allowed; the route must permit pixels and Config.AllowImages be set")

// mediaTypes are the image types both APIs accept.
var mediaTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// check validates req before anything is sent. Its errors name positions,
// never content.
func (req *Request) check(allowImages bool) (maxTokens int, err error) {
	if req.MaxTokens < 0 {
		return 0, fmt.Errorf("model: Request.MaxTokens is negative")
	}
	maxTokens = req.MaxTokens
	if maxTokens == 0 {
		maxTokens = DefaultMaxTokens
	}
	if len(req.Messages) == 0 {
		return 0, fmt.Errorf("model: Request.Messages is empty")
	}
	for i, m := range req.Messages {
		if m.Role != RoleUser && m.Role != RoleAssistant {
			return 0, fmt.Errorf("model: message %d: role must be %q or %q", i, RoleUser, RoleAssistant)
		}
		if len(m.Parts) == 0 {
			return 0, fmt.Errorf("model: message %d has no parts", i)
		}
		for j, p := range m.Parts {
			switch {
			case len(p.Image) > 0 && p.Text != "":
				return 0, fmt.Errorf("model: message %d part %d has both text and an image; split it", i, j)
			case len(p.Image) > 0 && !allowImages:
				return 0, fmt.Errorf("%w (message %d part %d)", ErrImagesNotAllowed, i, j)
			case len(p.Image) > 0 && !mediaTypes[p.MediaType]:
				return 0, fmt.Errorf("model: message %d part %d: media type must be image/png, image/jpeg, image/gif or image/webp", i, j)
			case len(p.Image) > 0 && m.Role != RoleUser:
				return 0, fmt.Errorf("model: message %d part %d: only user messages may carry images", i, j)
			case len(p.Image) == 0 && strings.TrimSpace(p.Text) == "":
				return 0, fmt.Errorf("model: message %d part %d is empty", i, j)
			}
		}
	}
	return maxTokens, nil
}
