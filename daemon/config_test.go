package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
)

func TestParseConfig(t *testing.T) {
	good := []string{
		`{}`,
		`{"client_port": 4333, "websocket_port": 4334}`,
		`{"extension_origins": ["chrome-extension://abcdefghijklmnopabcdefghijklmnop"]}`,
		`{"platform": {"remote_url": "tls://platform.example:7422", "remote_credentials": "/x.creds"}}`,
		`{"platform": {"listen": "0.0.0.0:7422"}}`,
		`{"local_model": {"base_url": "http://127.0.0.1:11434/v1", "model": "llava"}}`,
		`{"model": {"provider": "openai", "base_url": "http://127.0.0.1:8080/v1", "model": "qwen"}}`,
		`{"model": {"provider": "anthropic", "model": "claude-sonnet-4-5"}}`,
	}
	for _, in := range good {
		if _, err := ParseConfig([]byte(in)); err != nil {
			t.Errorf("ParseConfig(%s) = %v; want ok", in, err)
		}
	}
	bad := []struct{ in, mention string }{
		{``, "not a valid settings file"},
		{`[]`, "not a valid settings file"},
		{`{"client_prot": 1}`, "client_prot"},
		{`{"client_port": "4222"}`, "client_port"},
		{`{"client_port": 70000}`, "client_port"},
		{`{"websocket_port": -1}`, "websocket_port"},
		{`{"client_port": 5000, "websocket_port": 5000}`, "different ports"},
		{`{"extension_origins": ["evil.example"]}`, "extension_origins[0]"},
		{`{"extension_origins": ["chrome-extension://abc/path"]}`, "extension_origins[0]"},
		{`{"platform": {"remote_url": "http://x:1"}}`, "platform.remote_url"},
		{`{"platform": {"remote_url": "nats://"}}`, "platform.remote_url"},
		{`{"platform": {"remote_credentials": "/x.creds"}}`, "platform.remote_credentials"},
		{`{"platform": {"listen": "7422"}}`, "platform.listen"},
		{`{} {}`, "trailing"},
		{`{"keep_recordings": -1}`, "keep_recordings"},
		{`{"min_free_mb": -1}`, "min_free_mb"},
		{`{"local_model": {"base_url": "ftp://x", "model": "llava"}}`, "local_model.base_url"},
		{`{"local_model": {"base_url": "http://127.0.0.1:11434/v1"}}`, "local_model.model"},
		{`{"local_model": {"model": "llava"}}`, "local_model.base_url"},
		{`{"model": {"provider": "gemini", "model": "x"}}`, "model.provider"},
		{`{"model": {"provider": "openai"}}`, "model.model"},
		{`{"model": {"provider": "openai", "model": "m", "api_key": "sk"}}`, "api_key"},
		{`{"local_model": {"base_url": "http://h", "model": "m", "key": "k"}}`, "key"},
	}
	for _, tc := range bad {
		_, err := ParseConfig([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseConfig(%s) = %v; want an error mentioning %q", tc.in, err, tc.mention)
		}
	}
}

func TestLoadConfig(t *testing.T) {
	home := t.TempDir()
	if c, err := LoadConfig(home); err != nil || c.ClientPort != 0 {
		t.Fatalf("LoadConfig(no file) = %+v, %v; want zero config", c, err)
	}
	os.WriteFile(filepath.Join(home, ConfigFile), []byte(`{"client_port": 4333}`), 0o600)
	if c, err := LoadConfig(home); err != nil || c.ClientPort != 4333 {
		t.Fatalf("LoadConfig = %+v, %v; want client_port 4333", c, err)
	}
	os.WriteFile(filepath.Join(home, ConfigFile), []byte(`{"client_port": `), 0o600)
	if _, err := LoadConfig(home); err == nil || !strings.Contains(err.Error(), ConfigFile) {
		t.Fatalf("LoadConfig(truncated) = %v; want an error naming the file", err)
	}
}

func TestMachineID(t *testing.T) {
	home := t.TempDir()
	id, err := LoadOrCreateMachineID(home)
	if err != nil || !strings.HasPrefix(id, "m_") || len(id) != 26 {
		t.Fatalf("LoadOrCreateMachineID = %q, %v; want m_ and 24 hex digits", id, err)
	}
	again, err := LoadOrCreateMachineID(home)
	if err != nil || again != id {
		t.Fatalf("second LoadOrCreateMachineID = %q, %v; want %q", again, err, id)
	}
	fi, _ := os.Stat(filepath.Join(home, machineIDFile))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("machine id mode %v; want 0600", fi.Mode().Perm())
	}
	for _, bad := range []string{"", "m_a.b", "m_>", "x_123", "m_" + strings.Repeat("a", 200)} {
		os.WriteFile(filepath.Join(home, machineIDFile), []byte(bad), 0o600)
		if got, err := LoadOrCreateMachineID(home); err == nil {
			t.Errorf("LoadOrCreateMachineID with file %q = %q; want an error", bad, got)
		}
	}
}

func TestReadClientInfo(t *testing.T) {
	home := t.TempDir()
	if _, err := client.ReadInfo(home); err != client.ErrNotRunning {
		t.Fatalf("client.ReadInfo(no file) = %v; want ErrNotRunning", err)
	}
	path := filepath.Join(home, api.ClientFile)
	os.WriteFile(path, []byte(`{"url": "nats://127.0.0.1:1", "user": "cli", "password": "p"}`), 0o644)
	if _, err := client.ReadInfo(home); err == nil || !strings.Contains(err.Error(), "readable by other users") {
		t.Fatalf("client.ReadInfo(mode 0644) = %v; want refused", err)
	}
	for _, bad := range []string{`{`, `{"url": ""}`, `"x"`} {
		os.WriteFile(path, []byte(bad), 0o600)
		if _, err := client.ReadInfo(home); err == nil || strings.Contains(err.Error(), "password") {
			t.Errorf("client.ReadInfo(%s) = %v; want a malformed error", bad, err)
		}
	}
}
