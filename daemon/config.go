package daemon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// ConfigFile is the optional settings file in the data dir.
const ConfigFile = "config.json"

// Config is what a person may set in config.json. Every field is optional.
type Config struct {
	// ClientPort is the CLI's TCP port on 127.0.0.1; 0 picks a free one each start.
	ClientPort int `json:"client_port"`
	// WebSocketPort is the extension's port on 127.0.0.1; 0 picks a free one.
	WebSocketPort int `json:"websocket_port"`
	// ExtensionOrigins replaces the built-in extension's origin, for a
	// differently packed extension ("chrome-extension://<id>").
	ExtensionOrigins []string `json:"extension_origins"`
	// Platform is the platform's way in; off unless set.
	Platform PlatformConfig `json:"platform"`
	// KeepRecordings is how many recordings to keep; past it the oldest is
	// crypto-erased. 0 means 20.
	KeepRecordings int `json:"keep_recordings"`
	// KeepRuns is how many replay runs' artifacts (runs/<run>: downloads,
	// screenshots) to keep; past it the oldest run's folder is removed
	// when a run starts. 0 means 20.
	KeepRuns int `json:"keep_runs"`
	// MinFreeMB is the free disk space, in MB, below which a recording
	// does not start. 0 means 64.
	MinFreeMB int `json:"min_free_mb"`
	// LocalModel is a vision model on this machine (an OpenAI-compatible
	// endpoint such as Ollama), for the local_vlm route; off unless set.
	LocalModel LocalModelConfig `json:"local_model"`
	// Model is the model replay asks where a skill lets one decide (ai:
	// on_miss, every_run); without it, the local model; off unless set.
	Model ModelConfig `json:"model"`
}

// LocalModelConfig names a local OpenAI-compatible model server.
type LocalModelConfig struct {
	// BaseURL is the server's root, such as http://127.0.0.1:11434/v1.
	BaseURL string `json:"base_url"`
	// Model is the model's name on that server, such as "llava".
	Model string `json:"model"`
}

// PlatformConfig mirrors embedded.PlatformConfig in the settings file.
type PlatformConfig struct {
	// RemoteURL makes the shim connect out as a leafnode to the platform's NATS.
	RemoteURL string `json:"remote_url"`
	// RemoteCredentials is a .creds file for RemoteURL.
	RemoteCredentials string `json:"remote_credentials"`
	// Listen accepts the platform's leafnode on host:port.
	Listen string `json:"listen"`
}

// LoadConfig reads config.json from home; a missing file is the zero Config.
func LoadConfig(home string) (Config, error) {
	var c Config
	path := filepath.Join(home, ConfigFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read %s: %w", path, err)
	}
	c, err = ParseConfig(b)
	if err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// ParseConfig decodes and validates a config file's bytes. Unknown keys are
// errors: a misspelt setting must not be silently ignored.
func ParseConfig(b []byte) (Config, error) {
	var c Config
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("not a valid settings file: %w", err)
	}
	if dec.More() {
		return c, errors.New("not a valid settings file: trailing data after the object")
	}
	return c, c.Validate()
}

// Validate reports the first setting that cannot work, naming it.
func (c Config) Validate() error {
	for name, p := range map[string]int{"client_port": c.ClientPort, "websocket_port": c.WebSocketPort} {
		if p < 0 || p > 65535 {
			return fmt.Errorf("%s: %d is not a TCP port (0-65535; 0 picks a free one)", name, p)
		}
	}
	if c.MinFreeMB < 0 {
		return fmt.Errorf("min_free_mb: %d; want 0 (the default, 64) or more", c.MinFreeMB)
	}
	if c.KeepRuns < 0 {
		return fmt.Errorf("keep_runs: %d; want 1 or more (0 means the default, 20)", c.KeepRuns)
	}
	if c.KeepRecordings < 0 {
		return fmt.Errorf("keep_recordings: %d; want 1 or more (0 means the default, 20)", c.KeepRecordings)
	}
	if c.ClientPort != 0 && c.ClientPort == c.WebSocketPort {
		return fmt.Errorf("client_port and websocket_port are both %d; they need different ports", c.ClientPort)
	}
	for i, o := range c.ExtensionOrigins {
		u, err := url.Parse(o)
		if err != nil || u.Host == "" || u.Path != "" || !(u.Scheme == "chrome-extension" || u.Scheme == "http" || u.Scheme == "https") {
			return fmt.Errorf("extension_origins[%d]: %q is not an origin such as chrome-extension://<id>", i, o)
		}
		// The gate compares exactly, and browsers send origins lower case.
		if o != strings.ToLower(o) {
			return fmt.Errorf("extension_origins[%d]: %q: write it lower case, as a browser sends it", i, o)
		}
	}
	if r := c.Platform.RemoteURL; r != "" {
		u, err := url.Parse(r)
		if err != nil || u.Host == "" || !oneOf(u.Scheme, "nats", "tls", "ws", "wss") {
			return fmt.Errorf("platform.remote_url: %q is not a nats://, tls://, ws:// or wss:// URL", r)
		}
	}
	if c.Platform.RemoteCredentials != "" && c.Platform.RemoteURL == "" {
		return errors.New("platform.remote_credentials is set without platform.remote_url")
	}
	if m := c.LocalModel; m.BaseURL != "" || m.Model != "" {
		u, err := url.Parse(m.BaseURL)
		if err != nil || u.Host == "" || !oneOf(u.Scheme, "http", "https") {
			return fmt.Errorf("local_model.base_url: %q is not an http:// or https:// URL", m.BaseURL)
		}
		if m.Model == "" {
			return errors.New("local_model.model is empty: name the model the server runs (such as llava)")
		}
	}
	if err := c.Model.validate(); err != nil {
		return err
	}
	if l := c.Platform.Listen; l != "" {
		if _, _, err := net.SplitHostPort(l); err != nil {
			return fmt.Errorf("platform.listen: %q is not host:port: %w", l, err)
		}
	}
	return nil
}

func oneOf(s string, options ...string) bool {
	for _, o := range options {
		if strings.EqualFold(s, o) {
			return true
		}
	}
	return false
}
