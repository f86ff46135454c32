package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/chromedp/cdproto/target"
)

// currentPage is the id of the page a browser shows: the first page its
// DevTools HTTP endpoint lists, which is the most recently used tab.
func currentPage(ctx context.Context, devtools string) (target.ID, error) {
	u, err := url.Parse(devtools)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not a DevTools URL", redactURL(devtools))
	}
	scheme := "http"
	if u.Scheme == "wss" || u.Scheme == "https" {
		scheme = "https"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, scheme+"://"+u.Host+"/json/list", nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("list the browser's pages: %w", err)
	}
	defer resp.Body.Close()
	var pages []struct {
		ID   string `json:"id"`
		Type string `json:"type"`
		URL  string `json:"url"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&pages); err != nil {
		return "", fmt.Errorf("list the browser's pages: %w", err)
	}
	for _, p := range pages {
		if p.Type == "page" && !strings.HasPrefix(p.URL, "devtools://") && !strings.HasPrefix(p.URL, "chrome-extension://") {
			return target.ID(p.ID), nil
		}
	}
	return "", errors.New("the browser shows no page")
}

// RunningIn is the DevTools URL of the Chromium running with the profile
// in dir (as `reprise replay` runs one), read from the DevToolsActivePort
// file Chromium writes there.
func RunningIn(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort"))
	if err != nil {
		return "", fmt.Errorf("no browser is running with the profile %s: %w", dir, err)
	}
	port, path, ok := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if !ok || port == "" || !strings.HasPrefix(path, "/devtools/browser/") {
		return "", fmt.Errorf("the profile's DevToolsActivePort is not Chromium's")
	}
	return "ws://127.0.0.1:" + strings.TrimSpace(port) + strings.TrimSpace(path), nil
}
