package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

const (
	// HelperEnv names the variable that points at the reprise-fitz binary.
	HelperEnv = "REPRISE_FITZ"
	// DocTimeout is the default bound on reading one document.
	DocTimeout = 20 * time.Second
	// maxDocOutput is twice the helper's own cap on its JSON.
	maxDocOutput = 16 << 20

	// The helper's exit codes (cmd/reprise-fitz).
	exitBadDocument = 1
	exitNoCgo       = 3
)

const buildHelp = "build it with `make build` (or: CGO_ENABLED=1 go build -o bin/reprise-fitz ./cmd/reprise-fitz, which needs a C compiler), " +
	"then keep it next to the reprise binary, put it on PATH or set " + HelperEnv

// DocReader reads the text of documents with the reprise-fitz helper.
// The zero value is ready to use with the defaults.
type DocReader struct {
	// Helper is the path of reprise-fitz; empty finds it as HelperPath does.
	Helper string
	// Timeout bounds one document; zero means DocTimeout.
	Timeout time.Duration
}

// DocumentText returns the text of each page of the document at path (PDF,
// EPUB, XPS, CBZ, ...), read by the reprise-fitz helper with the defaults.
func DocumentText(ctx context.Context, path string) ([]string, error) {
	return DocReader{}.Text(ctx, path)
}

// DocumentsAvailable reports whether documents can be read here; when not,
// reason says how to build the helper.
func DocumentsAvailable() (ok bool, reason string) {
	bin, err := HelperPath()
	if err != nil {
		return false, err.Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := command(ctx, bin, "-check").Run(); err != nil {
		if code(err) == exitNoCgo {
			return false, bin + " was built without cgo: " + buildHelp
		}
		return false, fmt.Sprintf("%s does not run (%v): %s", bin, err, buildHelp)
	}
	return true, "document helper at " + bin
}

// HelperPath finds reprise-fitz: the path in $REPRISE_FITZ, else the file
// next to the running executable, else the one on PATH.
func HelperPath() (string, error) {
	if p := os.Getenv(HelperEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%w: %s=%s: %v", ErrUnavailable, HelperEnv, p, err)
		}
		return p, nil
	}
	name := "reprise-fitz"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%w: document helper %s not found next to the reprise binary or on PATH: %s", ErrUnavailable, name, buildHelp)
}

// Text returns the text of each page of the document at path. A document
// that crashes, hangs or floods the helper fails the helper and gives an
// error here; ErrBadInput when the helper rejected the document,
// ErrUnavailable when there is no working helper.
func (r DocReader) Text(ctx context.Context, path string) ([]string, error) {
	pages, err := r.text(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("document text of %s: %w", path, err)
	}
	return pages, nil
}

func (r DocReader) text(ctx context.Context, path string) ([]string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: not a regular file", ErrBadInput)
	}
	bin := r.Helper
	if bin == "" {
		if bin, err = HelperPath(); err != nil {
			return nil, err
		}
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DocTimeout
	}
	return runHelper(ctx, bin, abs, timeout)
}

func runHelper(ctx context.Context, bin, path string, timeout time.Duration) ([]string, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("reprise-fitz took over %v: %w", timeout, context.DeadlineExceeded))
	defer cancel()
	// "--" since a path may start with a dash.
	cmd := command(ctx, bin, "--", path)
	out := &capWriter{max: maxDocOutput, full: cancel}
	stderr := &capWriter{max: 8 << 10}
	cmd.Stdout, cmd.Stderr = out, stderr
	err := cmd.Run()
	switch {
	case out.over:
		return nil, fmt.Errorf("reprise-fitz printed over %d bytes", maxDocOutput)
	case ctx.Err() != nil:
		return nil, context.Cause(ctx)
	case err != nil:
		return nil, helperFailed(err, stderr.buf.String())
	}
	return decodePages(out.buf.Bytes())
}

// helperFailed explains a failed run. Of the helper's stderr it keeps only
// its own "reprise-fitz: " line, which never quotes the document; MuPDF's
// warnings on the same stream might.
func helperFailed(err error, stderr string) error {
	msg := "the document could not be read"
	for line := range strings.Lines(stderr) {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "reprise-fitz: "); ok {
			msg = m
		}
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		// It did not start: not a program for this system, or not executable.
		return fmt.Errorf("%w: reprise-fitz did not start: %v: %s", ErrUnavailable, err, buildHelp)
	}
	switch ee.ExitCode() {
	case exitNoCgo:
		return fmt.Errorf("%w: reprise-fitz was built without cgo: %s", ErrUnavailable, buildHelp)
	case exitBadDocument:
		return fmt.Errorf("%w: %s", ErrBadInput, msg)
	case -1:
		// Killed by a signal: MuPDF crashed or ran out of its limits.
		return fmt.Errorf("reprise-fitz crashed: %w", err)
	}
	return fmt.Errorf("reprise-fitz failed: %w: %s", err, msg)
}

// code is the exit code of a finished child, -1 when a signal ended it, 0
// when err is not about the exit.
func code(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return 0
}

func decodePages(b []byte) ([]string, error) {
	var res struct {
		Pages []string `json:"pages"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	err := dec.Decode(&res)
	if err == nil && dec.Decode(&struct{}{}) != io.EOF {
		err = errors.New("trailing data")
	}
	if err != nil || res.Pages == nil {
		// The output is the document's text: never quote it.
		return nil, fmt.Errorf("reprise-fitz printed malformed output (%d bytes)", len(b))
	}
	return res.Pages, nil
}
