package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeTool puts an executable named name on PATH that prints out.
func fakeTool(t *testing.T, name, out string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell-script tools need a Unix shell")
	}
	dir := t.TempDir()
	script := "#!/bin/sh\necho '" + out + "'\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
}

func TestToolProbes(t *testing.T) {
	ctx := context.Background()
	fakeTool(t, "tesseract", "tesseract 5.3.0")
	if c := OCR()(ctx); !c.OK || !strings.Contains(c.Detail, "tesseract 5.3.0") {
		t.Errorf("OCR() with tesseract on PATH = %+v; want ok with its version", c)
	}
	if c := Browser("chromium")(ctx); c.OK || c.Fix == "" {
		t.Errorf("Browser() with no browser on PATH = %+v; want not ok with a fix", c)
	}
	fakeTool(t, "chromium", "Chromium 156.0.8078.73")
	if c := Browser("google-chrome", "chromium")(ctx); !c.OK || !strings.Contains(c.Detail, "Chromium 156") {
		t.Errorf("Browser() with chromium on PATH = %+v; want ok", c)
	}
	if c := OCR()(ctx); c.OK {
		t.Errorf("OCR() without tesseract = %+v; want not ok", c)
	}
}

func TestDataDirProbe(t *testing.T) {
	ctx := context.Background()
	if c := DataDir(filepath.Join(t.TempDir(), "new"))(ctx); !c.OK {
		t.Errorf("DataDir(new dir) = %+v; want ok", c)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if c := DataDir(file)(ctx); c.OK || c.Fix == "" {
		t.Errorf("DataDir(a file) = %+v; want not ok with a fix", c)
	}
	if runtime.GOOS == "windows" {
		return
	}
	home := t.TempDir()
	os.Mkdir(filepath.Join(home, "keys"), 0o700)
	os.WriteFile(filepath.Join(home, "keys", "a.key"), []byte("k"), 0o600)
	os.Chmod(filepath.Join(home, "keys", "a.key"), 0o644)
	if c := DataDir(home)(ctx); c.OK || !strings.Contains(c.Detail, "a.key") {
		t.Errorf("DataDir(a home whose key is 0644) = %+v; want not ok, naming the key", c)
	}
}

func TestReportFormats(t *testing.T) {
	r := Run(context.Background(), "linux", []Probe{
		func(context.Context) Check { return Check{Name: "a", OK: true, Detail: "fine"} },
		func(context.Context) Check { return Check{Name: "b", Detail: "missing", Fix: "install b"} },
		NotBuilt("c"),
	})
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ok  a", "no  b", "-> install b", "not built yet"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Checks) != 3 || back.Checks[1].Fix != "install b" {
		t.Errorf("json report = %s (%v)", js.String(), err)
	}
}

// TestKeychainProbeFollowsTheDataDir: a data dir that keeps its keys in
// files is reported as such, whether a keychain answers or not.
func TestKeychainProbeFollowsTheDataDir(t *testing.T) {
	home := t.TempDir()
	os.Mkdir(filepath.Join(home, "keys"), 0o700)
	os.WriteFile(filepath.Join(home, "keys", "audit-chain.key"), []byte("k"), 0o600)
	if c := Keychain(home)(context.Background()); !c.OK || !strings.Contains(c.Detail, "keeps its keys in files") {
		t.Errorf("Keychain(a data dir with key files) = %+v; want ok, keys in files", c)
	}
	os.WriteFile(filepath.Join(home, "keys", "store"), []byte("maybe\n"), 0o600)
	if c := Keychain(home)(context.Background()); c.OK || c.Fix == "" {
		t.Errorf("Keychain(a data dir with a garbled record) = %+v; want not ok with a fix", c)
	}
}
