package main

import (
	"bytes"
	bin "encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"
)

const (
	bigSteps  = 20_000
	bigFrames = 2_000
	// bigRSS is the daemon's peak resident memory the issue asked for.
	bigRSS = 150 << 20
)

// TestBigRecordingThroughTheDaemon: a recording of 20,000 steps with 2,000
// frames, megabytes past NATS's 1 MB message limit, goes through the real
// daemon: stored whole, fetched, shown, its frames served to the review
// page, reviewed, and refused by skill build with the reason (a skill is
// one row of a task and must fit one message), never a timeout. The daemon's
// peak resident memory stays under 150 MB throughout.
func TestBigRecordingThroughTheDaemon(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("BIG RECORDING TEST SKIPPED: it reads the daemon's peak memory from /proc, which only Linux has")
	}
	dir := t.TempDir()
	script, framed := writeBigScript(t, dir)
	home := t.TempDir()
	d := startDaemonProcess(t, home, "--capture-script", script, "--capture-speed", "0", "--capture-patient",
		"--capture-frames", filepath.Join(dir, "frames"), "--consent-prompt", "cli")

	out, stderr, err := run(t, home, "record", "start", "--yes", "--channels", "floor,browser")
	id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
	if err != nil || id == "" {
		t.Fatalf("record start: %v\n%s%s", err, out, stderr)
	}
	waitHandled(t, home, bigSteps)
	out, stderr, err = run(t, home, "record", "stop")
	if err != nil || !strings.Contains(out, fmt.Sprintf("%d steps", bigSteps)) {
		t.Fatalf("record stop: %v\n%s%s; want all %d steps, none lost", err, out, stderr, bigSteps)
	}

	out, stderr, err = run(t, home, "recordings", "fetch", id, "--format", "json")
	var rec events.Recording
	if err != nil || json.Unmarshal([]byte(out), &rec) != nil || len(rec.Steps) != bigSteps || rec.Steps[bigSteps-1].Seq != bigSteps {
		t.Fatalf("recordings fetch: %v, %d steps, %d bytes\n%s", err, len(rec.Steps), len(out), stderr)
	}
	out, stderr, err = run(t, home, "recordings", "show", id)
	if err != nil || strings.Count(out, "\n") < bigSteps {
		t.Fatalf("recordings show: %v, %d lines\n%s", err, strings.Count(out, "\n"), stderr)
	}
	checkReviewFrame(t, home, id, framed)
	out, stderr, err = run(t, home, "recordings", "review", id, "--remove", "1")
	if err != nil || !strings.Contains(out, fmt.Sprintf("%d steps kept", bigSteps-1)) {
		t.Fatalf("recordings review: %v\n%s%s", err, out, stderr)
	}
	// A build may take its whole budget (OCR of unresolved frames, then the
	// alignment of 20,000 steps) on a loaded machine: the CLI's own limit
	// bounds it, not this harness's usual 30 s.
	out, stderr, err = runWithin(t, home, 4*time.Minute, "skill", "build", id, "--name", "big")
	if err == nil || !strings.Contains(stderr, "a skill can be") {
		t.Fatalf("skill build of %d steps: %v\n%s%s; want refused for its size, with the reason", bigSteps-1, err, out, stderr)
	}

	peak := peakRSS(t, d.Process.Pid)
	t.Logf("daemon peak RSS over %d steps and %d frames: %.1f MB", bigSteps, bigFrames, float64(peak)/(1<<20))
	if peak > bigRSS {
		t.Errorf("the daemon's peak RSS was %.1f MB; want under %d MB", float64(peak)/(1<<20), bigRSS>>20)
	}
}

// writeBigScript writes the scripted form's steps, repeated to bigSteps with
// unique frame references, as JSON lines, and noise frames for bigFrames of
// the steps that resolved an element (so a build has none to OCR). It
// returns the script's path and the seq and bytes of one framed step.
func writeBigScript(t *testing.T, dir string) (string, framedStep) {
	t.Helper()
	form := scriptedForm(t)
	frames := filepath.Join(dir, "frames")
	if err := os.Mkdir(frames, 0o700); err != nil {
		t.Fatal(err)
	}
	var lines bytes.Buffer
	var one framedStep
	rng := rand.New(rand.NewPCG(1, 2))
	written := 0
	for i := range bigSteps {
		s := form.Steps[i%len(form.Steps)]
		s.Seq = uint64(i + 1)
		s.ScreenshotRef = fmt.Sprintf("stub_%08x-0000-4000-8000-%012x", i, i)
		line, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(append(line, '\n'))
		// Every seventh step (seven is prime to the form's nine) that
		// resolved an element, until there are enough.
		if written < bigFrames && i%7 == 0 && s.Enrichment != nil && s.Enrichment.Kind == events.KindDOM {
			img := noise(rng)
			if err := os.WriteFile(filepath.Join(frames, s.ScreenshotRef+".png"), img, 0o600); err != nil {
				t.Fatal(err)
			}
			if written == bigFrames/2 {
				one = framedStep{seq: s.Seq, png: img}
			}
			written++
		}
	}
	if written != bigFrames {
		t.Fatalf("wrote %d frames; want %d", written, bigFrames)
	}
	script := filepath.Join(dir, "big.jsonl")
	if err := os.WriteFile(script, lines.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return script, one
}

// scriptedForm is the scripted source's form recording.
func scriptedForm(t *testing.T) *events.Recording {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "capture", "scripted", "testdata", "form.json"))
	if err != nil {
		t.Fatal(err)
	}
	form, err := events.DecodeRecordingJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	return form
}

type framedStep struct {
	seq uint64
	png []byte
}

// noise is a small PNG of random pixels: incompressible, like a busy screen.
func noise(rng *rand.Rand) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for i := 0; i < len(img.Pix); i += 8 {
		bin.LittleEndian.PutUint64(img.Pix[i:], rng.Uint64()|0xff000000ff000000) // opaque
	}
	// Noise does not compress: storing it saves the test binary, built
	// with -race, most of its time.
	var b bytes.Buffer
	_ = (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&b, img)
	return b.Bytes()
}

// checkReviewFrame opens `reprise review`'s page for the recording and
// fetches one step's frame through it: the bytes the source kept.
func checkReviewFrame(t *testing.T, home, id string, want framedStep) {
	t.Helper()
	url, _ := startReviewPage(t, home, id)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: time.Minute}
	get := func(u string) []byte {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatalf("review page: %v", err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("review page %s: %s, %v", u[:strings.IndexByte(u+"?", '?')], resp.Status, err)
		}
		return b
	}
	if page := get(url); !bytes.Contains(page, []byte(id)) {
		t.Errorf("the review page does not name recording %s", id)
	}
	origin := url[:strings.Index(url, "/review")]
	if img := get(origin + "/frame/" + strconv.FormatUint(want.seq, 10)); !bytes.Equal(img, want.png) {
		t.Errorf("frame of step %d: %d bytes, not the %d kept", want.seq, len(img), len(want.png))
	}
}

// peakRSS is a process's peak resident memory (VmHWM), in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}
