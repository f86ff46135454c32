//go:build windows

// Command hookprobe records the desktop with capture/winhook (or, with
// -floor, the whole Windows floor: hooks, frames and enrichment) for a while
// and writes each step as a JSON line, each stored frame as a line
// {"frame": ref, "png": size}, then a last line with the hooks' Stats: the
// Windows half of the winhook and floor tests, run under Wine while a
// Linux-side test plays the person with xdotool.
//
//	hookprobe -out Z:\tmp\steps.jsonl -for 20s [-injected] [-notepad [-state FILE]] [-floor]
//
// With -notepad it first starts notepad with its window at 100,80 (600 by
// 400), and with -state it keeps FILE holding notepad's text and selection
// (wine.NotepadState), which the person's side waits on. It writes "ready" as the first line once the hooks are in place,
// and stops early when the file named by -stop exists.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/floor"
	"github.com/reprise-dev/reprise/capture/winhook"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/wine"

	"golang.org/x/sys/windows"
)

// lineSink writes each step as a JSON line.
type lineSink struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (s *lineSink) Emit(step events.Step) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc.Encode(step)
}

// PutFrame notes each frame's ref and size; the pixels stay in memory.
func (s *lineSink) PutFrame(_ context.Context, ref string, png []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc.Encode(map[string]any{"frame": ref, "png": len(png)})
}

func main() {
	out := flag.String("out", "", "file to write the steps to")
	stop := flag.String("stop", "", "stop once this file exists")
	dur := flag.Duration("for", 20*time.Second, "how long to record at most")
	injected := flag.Bool("injected", false, "record injected input too")
	notepad := flag.Bool("notepad", false, "start notepad at 100,80 first")
	whole := flag.Bool("floor", false, "record with the whole floor (frames, enrichment), not the hooks alone")
	state := flag.String("state", "", "with -notepad, file to keep notepad's text and selection in")
	flag.Parse()
	if err := run(*out, *stop, *state, *dur, *injected, *notepad, *whole); err != nil {
		fmt.Fprintln(os.Stderr, "hookprobe:", err)
		os.Exit(1)
	}
}

func run(out, stop, state string, dur time.Duration, injected, notepad, whole bool) error {
	if notepad {
		cmd, hwnd, err := wine.OpenNotepad(100, 80, 600, 400)
		if cmd != nil {
			defer cmd.Process.Kill()
		}
		if err != nil {
			return err
		}
		if state != "" {
			go keepState(state, hwnd)
		}
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	hooks := winhook.New(winhook.Options{IncludeInjected: injected})
	var src capture.Source = hooks
	if whole {
		src = floor.New("", slog.New(slog.NewTextHandler(os.Stderr, nil)))
	}
	if ok, reason := src.Available(); !ok {
		return fmt.Errorf("%s is not available: %s", src.Name(), reason)
	}
	sink := &lineSink{enc: json.NewEncoder(f)}
	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	sess := capture.Session{RecordingID: "hookprobe", Mode: capture.ModeDemonstration, Channels: []string{capture.ChannelFloor}}
	if err := src.Start(ctx, sess, sink); err != nil {
		return err
	}
	sink.mu.Lock()
	fmt.Fprintln(f, "ready")
	sink.mu.Unlock()
	for ctx.Err() == nil {
		if _, err := os.Stat(stop); stop != "" && err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := src.Stop(); err != nil {
		return err
	}
	if whole {
		return nil
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	return sink.enc.Encode(map[string]any{"stats": hooks.Stats()})
}

// keepState rewrites path whenever notepad's text or selection changes.
func keepState(path string, notepad windows.HWND) {
	last := "\x00"
	for ; ; time.Sleep(50 * time.Millisecond) {
		if now := wine.NotepadState(notepad); now != last {
			tmp := path + ".tmp"
			if os.WriteFile(tmp, []byte(now), 0o600) == nil && os.Rename(tmp, path) == nil {
				last = now
			}
		}
	}
}
