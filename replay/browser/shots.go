package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// maxShotWidth is the widest screenshot kept: a wider page is scaled down.
const maxShotWidth = 1920

// shot saves the page as the step's screenshot when the skill's policy
// asks for one after this step, and returns its path ("" for none).
func (e *Executor) shot(ctx context.Context, st replay.Step, ok bool) (string, error) {
	if st.Artifacts == "" {
		return "", nil
	}
	name := ""
	switch policy := e.shots; {
	case policy == skills.ShotsNever:
		return "", nil
	case !ok:
		name = fmt.Sprintf("%02d-failure.png", st.Index+1)
	case policy == skills.ShotsEach:
		name = fmt.Sprintf("%02d-%s.png", st.Index+1, st.Action)
	case policy == skills.ShotsFinal && st.Last:
		name = "final.png"
	default:
		return "", nil
	}
	png, err := e.capture(ctx)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(st.Artifacts, 0o700); err != nil {
		return "", fmt.Errorf("screenshot: %w", err)
	}
	path := filepath.Join(st.Artifacts, name)
	if err := os.WriteFile(path, png, 0o600); err != nil {
		return "", fmt.Errorf("screenshot: %w", err)
	}
	return path, nil
}

// capture takes the viewport as a PNG, scaled to maxShotWidth when wider.
func (e *Executor) capture(ctx context.Context) ([]byte, error) {
	m, err := chromedp.Call(ctx, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return nil, err
	}
	p := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng}
	if vp := m.CSSVisualViewport; vp != nil && vp.ClientWidth > maxShotWidth {
		p.Clip = &page.Viewport{X: vp.PageX, Y: vp.PageY, Width: vp.ClientWidth, Height: vp.ClientHeight, Scale: maxShotWidth / vp.ClientWidth}
	}
	shot, err := chromedp.Call(ctx, page.CaptureScreenshot, p)
	if err != nil {
		return nil, err
	}
	return shot.Data, nil
}
