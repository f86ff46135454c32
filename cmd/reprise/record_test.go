package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/syncbuf"
)

// TestRecordEndToEnd is the whole flow through the CLI, as a person runs it:
// consent, start, the scripted demonstration plays, stop, summary, fetch.
func TestRecordEndToEnd(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	script, _ := filepath.Abs(filepath.Join("..", "..", "capture", "scripted", "testdata", "form.json"))
	startDaemonProcess(t, home, "--capture-script", script, "--capture-speed", "0", "--consent-prompt", "cli")

	out, stderr, err := run(t, home, "record", "start", "--yes", "--mode", "demonstration", "--channels", "floor,browser")
	if err != nil {
		t.Fatalf("record start: %v\n%s%s", err, out, stderr)
	}
	id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
	if id == "" {
		t.Fatalf("record start printed no recording id:\n%s", out)
	}
	if out, stderr, err := run(t, home, "record", "start", "--yes"); err == nil || !strings.Contains(stderr, "RECORDING_ALREADY_ACTIVE") {
		t.Fatalf("second record start: %v\n%s%s; want RECORDING_ALREADY_ACTIVE", err, out, stderr)
	}

	out, stderr, err = run(t, home, "record", "stop")
	if err != nil {
		t.Fatalf("record stop: %v\n%s", err, stderr)
	}
	// The fixture has nine steps: seven in the browser, two in a desktop app.
	if !strings.Contains(out, "stopped "+id+": 9 steps") || !strings.Contains(out, "dom 7, ax 0, none 2") {
		t.Fatalf("record stop printed %q; want 9 steps, dom 7, ax 0, none 2", out)
	}

	out, stderr, err = run(t, home, "recordings", "fetch", id, "--format", "json")
	if err != nil {
		t.Fatalf("recordings fetch: %v\n%s", err, stderr)
	}
	rec, err := events.DecodeRecordingJSON([]byte(out))
	if err != nil {
		t.Fatalf("fetched recording: %v\n%s", err, out)
	}
	if rec.RecordingID != id || len(rec.Steps) != 9 || rec.InterpretationRoute != "extract_then_cloud" {
		t.Fatalf("fetched %s with %d steps, route %s", rec.RecordingID, len(rec.Steps), rec.InterpretationRoute)
	}
	for i, s := range rec.Steps {
		if s.Seq != uint64(i+1) || s.Actor != events.ActorHuman {
			t.Fatalf("step %d: seq %d actor %s", i, s.Seq, s.Actor)
		}
	}
	if rec.Steps[1].Action != events.ActionFill || rec.Steps[1].Enrichment.Label != "First Name" {
		t.Errorf("step 2 = %s %+v; want the First Name fill", rec.Steps[1].Action, rec.Steps[1].Enrichment)
	}

	out, _, err = run(t, home, "recordings", "list", "--format", "json")
	var list struct {
		Recordings []struct {
			RecordingID string `json:"recording_id"`
			State       string `json:"state"`
			StepsStored int    `json:"steps_stored"`
		} `json:"recordings"`
	}
	if err != nil || json.Unmarshal([]byte(out), &list) != nil || len(list.Recordings) != 1 ||
		list.Recordings[0].State != "stopped" || list.Recordings[0].StepsStored != 9 {
		t.Fatalf("recordings list: %v\n%s", err, out)
	}
	if out, _, err := run(t, home, "recordings", "show", id); err != nil || !strings.Contains(out, "First Name") {
		t.Fatalf("recordings show: %v\n%s", err, out)
	}
	if _, stderr, err := run(t, home, "recordings", "fetch", "rec_00000000-0000-4000-8000-000000000000"); err == nil || !strings.Contains(stderr, "RECORDING_NOT_FOUND") {
		t.Fatalf("fetch of an unknown recording: %v %s", err, stderr)
	}

	// The audit chain holds what happened, content-free, and verifies.
	out, stderr, err = run(t, home, "audit", "tail", "-n", "20")
	if err != nil {
		t.Fatalf("audit tail: %v\n%s", err, stderr)
	}
	for _, kind := range []string{"consent.issued", "consent.used", "recording.started", "recording.stopped"} {
		if !strings.Contains(out, kind) {
			t.Errorf("audit tail lacks %s:\n%s", kind, out)
		}
	}
	if strings.Contains(out, "Maria") || strings.Contains(out, "Okafor") {
		t.Errorf("a recorded value reached the audit log:\n%s", out)
	}
	if out, stderr, err := run(t, home, "audit", "verify"); err != nil {
		t.Fatalf("audit verify: %v\n%s%s", err, out, stderr)
	}

	buildSkillFromCLI(t, home, id)
	if out, _, err := run(t, home, "audit", "tail", "-n", "5"); err != nil || !strings.Contains(out, "skill.built") {
		t.Fatalf("audit tail after a skill build: %v\n%s", err, out)
	}
}

// TestRecordStartQuestionAnsweredElsewhere: `record start` asks on its
// terminal, and the person answers elsewhere (here `reprise consent
// approve`; an OS dialog does the same): the terminal question is dropped
// and the recording starts, instead of the CLI waiting on a question
// nobody will answer.
func TestRecordStartQuestionAnsweredElsewhere(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	script, _ := filepath.Abs(filepath.Join("..", "..", "capture", "scripted", "testdata", "form.json"))
	startDaemonProcess(t, home, "--capture-script", script, "--capture-speed", "0", "--consent-prompt", "cli")
	stdin, hold, err := os.Pipe() // a terminal nobody types into
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	defer stdin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "record", "start", "--channels", "floor")
	cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+home)
	cmd.Stdin = stdin
	var out syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var id string
	for id == "" {
		list, _, _ := run(t, home, "consent", "list", "--format", "json")
		if m := regexp.MustCompile(`"id":\s*"([^"]+)"`).FindStringSubmatch(list); m != nil {
			id = m[1]
		} else if ctx.Err() != nil {
			t.Fatalf("no consent prompt appeared:\n%s", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, stderr, err := run(t, home, "consent", "approve", id); err != nil {
		t.Fatalf("consent approve: %v\n%s", err, stderr)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("record start did not finish once consent was given elsewhere: %v\n%s", err, out.String())
	}
	if s := out.String(); !strings.Contains(s, "answered elsewhere") || !regexp.MustCompile(`recording rec_`).MatchString(s) {
		t.Errorf("record start said:\n%s\nwant the question dropped and the recording started", s)
	}
}
