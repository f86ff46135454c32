package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// downloads follows the files a tab's steps download. Chromium saves each
// under the run's staging folder by its id (allowAndName: tabs filing rows
// in parallel share the browser's one download folder); once complete it
// is moved to its row's downloads folder under the name the site
// suggested, made unique there.
type downloads struct {
	folder string // the staging folder Chromium saves into; "" refuses downloads
	set    bool   // folder is what Chromium was told

	mu     sync.Mutex
	frames map[cdp.FrameID]bool // the tab's frames: a download of another tab is not this one's
	seen   []*download          // begun since the mark
	moved  chan struct{}        // closed and replaced at each change
}

type download struct {
	guid, name string
	state      cdpbrowser.DownloadProgressState
}

func newDownloads() *downloads {
	return &downloads{frames: map[cdp.FrameID]bool{}, moved: make(chan struct{})}
}

func (d *downloads) observe(ev any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch ev := ev.(type) {
	case *page.EventFrameAttached:
		d.frames[ev.FrameID] = true
		return
	case *cdpbrowser.EventDownloadWillBegin:
		if !d.frames[ev.FrameID] {
			return
		}
		d.seen = append(d.seen, &download{guid: ev.GUID, name: ev.SuggestedFilename, state: cdpbrowser.DownloadProgressStateInProgress})
	case *cdpbrowser.EventDownloadProgress:
		for _, dl := range d.seen {
			if dl.guid == ev.GUID {
				dl.state = ev.State
			}
		}
	default:
		return
	}
	close(d.moved)
	d.moved = make(chan struct{})
}

// allow points Chromium's downloads at folder (once per folder), or
// refuses them when folder is "": a run that keeps no artifacts.
func (d *downloads) allow(ctx context.Context, folder string) error {
	if d.set && folder == d.folder {
		return nil
	}
	p := cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny}
	if folder != "" {
		if err := os.MkdirAll(folder, 0o700); err != nil {
			return fmt.Errorf("downloads folder: %w", err)
		}
		events := true
		p = cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: folder, EventsEnabled: &events}
	}
	if _, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, p); err != nil {
		return err
	}
	d.folder, d.set = folder, true
	return nil
}

// mark starts a step: downloads begun before it are its predecessors'.
func (d *downloads) mark() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.seen = nil
}

// begun reports whether a download began since the mark.
func (d *downloads) begun() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.seen) > 0
}

// Download limits.
const (
	downloadBegin = 5 * time.Second // an output step waits this long for its download to begin
	downloadLimit = 2 * time.Minute // and any download this long to end
)

// settle waits for the step's downloads to end, first waiting up to begin
// for one to start when begin > 0, and moves the completed ones to dir.
// It returns their paths. A cancelled download or one still running at
// downloadLimit is an error: the row did not get its file.
func (d *downloads) settle(ctx context.Context, begin time.Duration, dir string) ([]string, error) {
	limit := time.NewTimer(downloadLimit)
	defer limit.Stop()
	first := time.NewTimer(begin)
	defer first.Stop()
	for {
		d.mu.Lock()
		seen, moved := d.seen, d.moved
		running := 0
		for _, dl := range seen {
			if dl.state == cdpbrowser.DownloadProgressStateInProgress {
				running++
			}
		}
		d.mu.Unlock()
		if running == 0 && (len(seen) > 0 || begin == 0) {
			return d.keep(seen, dir)
		}
		select {
		case <-moved:
		case <-first.C:
			if len(seen) == 0 {
				return nil, errors.New("no download began")
			}
		case <-limit.C:
			return nil, fmt.Errorf("%d download(s) still running after %s", running, downloadLimit)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// keep moves completed downloads from the staging folder into dir.
func (d *downloads) keep(seen []*download, dir string) ([]string, error) {
	var paths []string
	for _, dl := range seen {
		if dl.state == cdpbrowser.DownloadProgressStateCanceled {
			return paths, errors.New("a download was cancelled")
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return paths, fmt.Errorf("downloads folder: %w", err)
		}
		to, err := unique(dir, safeName(dl.name))
		if err != nil {
			return paths, err
		}
		if err := os.Rename(filepath.Join(d.folder, dl.guid), to); err != nil {
			return paths, fmt.Errorf("keep a download: %w", err)
		}
		paths = append(paths, to)
	}
	return paths, nil
}

// safeName is a site's suggested file name as one plain name.
func safeName(name string) string {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || strings.ContainsRune(`<>:"|?*`, r) {
			return '_'
		}
		return r
	}, name)
	if name == "" || name == "." || name == ".." || name == "/" {
		return "download"
	}
	return name
}

// unique is dir/name, or dir/name (2).ext and on when that is taken. The
// file is created (empty) so a parallel tab cannot take the same name.
func unique(dir, name string) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i < 1000; i++ {
		p := filepath.Join(dir, name)
		if i > 1 {
			p = filepath.Join(dir, fmt.Sprintf("%s (%d)%s", stem, i, ext))
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("keep a download: %w", err)
		}
		f.Close()
		return p, nil
	}
	return "", errors.New("keep a download: 999 files of that name already")
}
