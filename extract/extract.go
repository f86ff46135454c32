// Package extract reads text out of what a recorded step shows, on this
// machine: OCR of a frame with the tesseract binary, and the text of a
// document through the reprise-fitz helper (MuPDF). No pixel or page leaves
// the machine, and no recognized text is ever logged or put in an error.
//
// Both extractors run as child processes with a timeout, an output cap and a
// minimal environment, so a hostile input can fail the child, never the caller.
package extract

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"time"
)

// ErrUnavailable means an extractor is not installed or cannot work here; the
// error's text says what to install or build.
var ErrUnavailable = errors.New("extractor unavailable")

// ErrBadInput means the input was refused or could not be read: not a PNG or
// JPEG, too large, not a regular file, or a document the helper rejected.
var ErrBadInput = errors.New("unreadable input")

// envKeys are the variables a child keeps: enough to find its files and a
// temp dir (Windows needs SYSTEMROOT to start at all), nothing else of ours.
var envKeys = []string{"PATH", "HOME", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "TESSDATA_PREFIX"}

func childEnv(extra ...string) []string {
	var env []string
	for _, k := range envKeys {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return append(env, extra...)
}

// command prepares a child that is killed, with anything it forked, when ctx
// ends, and whose pipes are closed soon after even if a grandchild holds them.
func command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = childEnv()
	cmd.WaitDelay = 2 * time.Second
	ownGroup(cmd)
	return cmd
}

// capWriter keeps the first max bytes written to it and drops the rest; the
// first time it overflows it calls full, which stops the child.
type capWriter struct {
	buf  bytes.Buffer
	max  int
	over bool
	full func()
}

func (w *capWriter) Write(p []byte) (int, error) {
	if w.over {
		return len(p), nil
	}
	if room := w.max - w.buf.Len(); len(p) > room {
		w.buf.Write(p[:room])
		w.over = true
		if w.full != nil {
			w.full()
		}
		return len(p), nil
	}
	return w.buf.Write(p)
}
