package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// builds holds the real reprise-fitz, built once per test binary with cgo
// ([1]) and without ([0]).
var (
	buildDir string
	builds   [2]struct {
		once sync.Once
		path string
		err  error
	}
)

func TestMain(m *testing.M) {
	var err error
	if buildDir, err = os.MkdirTemp("", "reprise-fitz-test"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(buildDir)
	os.Exit(code)
}

// helper builds reprise-fitz with or without cgo and returns its path.
func helper(t *testing.T, cgo bool) string {
	t.Helper()
	b, env := &builds[0], "CGO_ENABLED=0"
	if cgo {
		b, env = &builds[1], "CGO_ENABLED=1"
	}
	b.once.Do(func() {
		bin := filepath.Join(buildDir, "reprise-fitz-"+env)
		cmd := exec.Command("go", "build", "-o", bin, "github.com/reprise-dev/reprise/cmd/reprise-fitz")
		cmd.Env = append(os.Environ(), env)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("%v: %s", err, out)
			return
		}
		b.path = bin
	})
	if b.err != nil {
		t.Fatalf("build reprise-fitz with %s: %v", env, b.err)
	}
	return b.path
}

func TestDocumentText(t *testing.T) {
	t.Setenv(HelperEnv, helper(t, true))
	if ok, reason := DocumentsAvailable(); !ok {
		t.Fatalf("DocumentsAvailable() = false, %q", reason)
	}
	start := time.Now()
	pages, err := DocumentText(t.Context(), "testdata/pdf/invoice.pdf")
	t.Logf("DocumentText(invoice.pdf) took %v", time.Since(start))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 2 || !strings.Contains(pages[0], "Invoice 4711") || !strings.Contains(pages[1], "Total 99.00") {
		t.Errorf("DocumentText(invoice.pdf) = %q; want pages with Invoice 4711 and Total 99.00", pages)
	}
}

// TestDocumentHostile feeds broken and hostile files to the real helper:
// each must fail with an error while this process carries on.
func TestDocumentHostile(t *testing.T) {
	t.Setenv(HelperEnv, helper(t, true))
	pdf, err := os.ReadFile("testdata/pdf/invoice.pdf")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noise := make([]byte, 64<<10)
	r := rand.NewChaCha8([32]byte{1})
	_, _ = r.Read(noise)
	for name, path := range map[string]string{
		"truncated":          write("truncated.pdf", pdf[:40]),
		"random with header": write("random.pdf", append([]byte("%PDF-1.7\n"), noise...)),
		"huge page count":    write("count.pdf", bytes.Replace(pdf, []byte("/Count 2 "), []byte("/Count 2147483647 "), 1)),
		"empty":              write("empty.pdf", nil),
		"directory":          dir,
		"missing":            filepath.Join(dir, "missing.pdf"),
	} {
		pages, err := DocumentText(t.Context(), path)
		if err == nil {
			t.Errorf("DocumentText(%s) = %d pages; want an error", name, len(pages))
			continue
		}
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("DocumentText(%s) = %v; want ErrBadInput", name, err)
		}
	}
}

// TestDocumentTruncatedLate: MuPDF repairs a PDF cut after its first page
// and returns what it recovers; that must be a result, not a failure here.
func TestDocumentTruncatedLate(t *testing.T) {
	t.Setenv(HelperEnv, helper(t, true))
	pdf, err := os.ReadFile("testdata/pdf/invoice.pdf")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "cut.pdf")
	if err := os.WriteFile(p, pdf[:500], 0o600); err != nil {
		t.Fatal(err)
	}
	pages, err := DocumentText(t.Context(), p)
	if err != nil || len(pages) == 0 || !strings.Contains(pages[0], "Invoice 4711") {
		t.Errorf("DocumentText(cut after page 1) = %q, %v; want page 1's text", pages, err)
	}
}

func TestDocumentHelperWithoutCgo(t *testing.T) {
	bin := helper(t, false)
	err := exec.Command(bin, "testdata/pdf/invoice.pdf").Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitNoCgo {
		t.Fatalf("reprise-fitz without cgo: %v; want exit code %d", err, exitNoCgo)
	}
	t.Setenv(HelperEnv, bin)
	if _, err := DocumentText(t.Context(), "testdata/pdf/invoice.pdf"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("DocumentText with a helper without cgo = %v; want ErrUnavailable", err)
	}
	if ok, reason := DocumentsAvailable(); ok || !strings.Contains(reason, "without cgo") {
		t.Errorf("DocumentsAvailable() = %v, %q; want false, built without cgo", ok, reason)
	}
}

func TestDocumentHelperMissing(t *testing.T) {
	t.Setenv(HelperEnv, "")
	t.Setenv("PATH", t.TempDir())
	_, err := DocumentText(t.Context(), "testdata/pdf/invoice.pdf")
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "make build") {
		t.Errorf("DocumentText with no helper = %v; want ErrUnavailable saying make build", err)
	}
	t.Setenv(HelperEnv, filepath.Join(t.TempDir(), "nope"))
	if ok, reason := DocumentsAvailable(); ok || !strings.Contains(reason, HelperEnv) {
		t.Errorf("DocumentsAvailable() with a wrong %s = %v, %q; want false naming it", HelperEnv, ok, reason)
	}
}

// fakeHelper writes a shell script standing in for reprise-fitz, for the
// two failures the real one cannot be made to show: hanging and garbling.
func fakeHelper(t *testing.T, script string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("fake helpers are shell scripts")
	}
	p := filepath.Join(t.TempDir(), "reprise-fitz")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(HelperEnv, p)
}

func TestDocumentTimeout(t *testing.T) {
	// Not exec: the sleep is a grandchild that must die with the script.
	fakeHelper(t, "sleep 30; echo '{\"pages\":[]}'")
	start := time.Now()
	_, err := DocReader{Timeout: 300 * time.Millisecond}.Text(t.Context(), "testdata/pdf/invoice.pdf")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Text with a hanging helper = %v; want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Text with a hanging helper returned after %v; want about 300ms", d)
	}
}

func TestDocumentMalformedOutput(t *testing.T) {
	for _, out := range []string{
		`not json Invoice 4711`, `{"pages": ["Invoice 4711"`, `{"pages": null}`, `{}`,
		`{"pages": ["a"]} trailing Invoice 4711`, `["Invoice 4711"]`,
	} {
		fakeHelper(t, "printf '%s' '"+out+"'")
		_, err := DocumentText(t.Context(), "testdata/pdf/invoice.pdf")
		if err == nil || !strings.Contains(err.Error(), "malformed") || strings.Contains(err.Error(), "4711") {
			t.Errorf("DocumentText with output %q = %v; want a malformed output error that does not quote it", out, err)
		}
	}
}

func TestCapWriter(t *testing.T) {
	full := 0
	w := &capWriter{max: 5, full: func() { full++ }}
	for _, s := range []string{"abc", "defg", "hij"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v; want %d, nil", s, n, err, len(s))
		}
	}
	if got := w.buf.String(); got != "abcde" || !w.over || full != 1 {
		t.Errorf("capWriter kept %q, over %v, full called %d times; want abcde, true, 1", got, w.over, full)
	}
}

// TestNoFitzInProcess guards the boundary: MuPDF runs in reprise-fitz only,
// so this package (and the reprise binary using it) stays free of cgo.
func TestNoFitzInProcess(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/reprise-dev/reprise/extract").Output()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("github.com/gen2brain/go-fitz")) {
		t.Error("extract depends on go-fitz; only cmd/reprise-fitz may")
	}
}
