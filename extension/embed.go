// Package extension holds the reprise browser extension (Manifest V3, plain
// JavaScript: nothing to build) and writes it out for Chrome to load.
package extension

import (
	"bytes"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

//go:generate go run ../internal/codegen

//go:embed manifest.json *.js *.html
var files embed.FS

// DOMModelJS is the DOM model the recorder and the replayer share
// (dom.js): a script that defines RepriseDOM, the model's functions. The
// extension loads it as a content script before content.js; the replayer
// evaluates it inside a function in an isolated world of its own.
//
//go:embed dom.js
var DOMModelJS string

// WriteTo writes the unpacked extension to dir, replacing files that
// differ, and returns dir's absolute path for chrome://extensions or
// --load-extension. The extension's id is fixed by the manifest's key.
func WriteTo(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", fmt.Errorf("extension dir: %w", err)
	}
	err = fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(abs, path)
		if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, b) {
			return nil
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return "", fmt.Errorf("write extension: %w", err)
	}
	return abs, nil
}

// PairingURL is the link that pairs the loaded extension with a daemon: the
// credentials ride in the fragment, which never leaves the browser.
func PairingURL(wsURL, user, password string) string {
	b, _ := json.Marshal(map[string]string{"url": wsURL, "user": user, "password": password})
	return "chrome-extension://" + ID() + "/pair.html#" + base64.StdEncoding.EncodeToString(b)
}

// ID is the extension's id, fixed by the manifest's key.
func ID() string {
	return strings.TrimPrefix(Origin, "chrome-extension://")
}
