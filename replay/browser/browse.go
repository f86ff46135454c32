package browser

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/reprise-dev/reprise/internal/chromium"
)

// Browse opens a visible browser on o.ProfileDir at url for the person,
// to log in to a site once so that replays and workers on that profile
// find the login: it returns when the person closes the window, or, when
// ctx ends first, after asking the browser to close so it writes its
// profile (a killed Chromium keeps nothing).
func Browse(ctx context.Context, o Options, url string) error {
	o.Show = true
	lo, err := launchOptions(o)
	if err != nil {
		return fmt.Errorf("browser: %w", err)
	}
	lo.URL = url
	if err := os.MkdirAll(o.ProfileDir, 0o700); err != nil {
		return fmt.Errorf("browser: profile dir: %w", err)
	}
	if err := makeProfilePrivate(o.ProfileDir); err != nil {
		return fmt.Errorf("browser: %w", err)
	}
	br, err := chromium.Launch(ctx, lo)
	if err != nil {
		return fmt.Errorf("browser: %w", err)
	}
	select {
	case <-br.Exited():
		br.Close()
	case <-ctx.Done():
		br.Quit(10 * time.Second)
	}
	return nil
}
