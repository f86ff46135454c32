package client_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/scripted"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay/rows"
)

// startDaemon runs the real daemon on a temp data dir, capturing the
// scripted form, and dials it as the CLI does.
func startDaemon(t *testing.T) (string, *client.Client) {
	t.Helper()
	home := t.TempDir()
	src := scripted.New("scripted", "../capture/scripted/testdata/form.json", []string{capture.ChannelFloor, capture.ChannelBrowser}, scripted.Options{})
	d, err := daemon.Start(context.Background(), daemon.Options{Home: home, ConsentPrompt: daemon.PromptCLI, Sources: []capture.Source{src}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	c, err := client.Dial(home)
	if err != nil {
		t.Fatalf("Dial(%s) = %v", home, err)
	}
	t.Cleanup(c.Close)
	return home, c
}

// record asks for consent, approves it from the asking side as `reprise
// record start --yes` does, and starts a recording.
func record(t *testing.T, ctx context.Context, c *client.Client) ops.Started {
	t.Helper()
	req := ops.ConsentRequest{Mode: capture.ModeDemonstration, InterpretationRoute: "extract_then_cloud", Channels: []string{capture.ChannelFloor}}
	asked := 0
	started, err := c.Record(ctx, req, func(p api.ConsentPrompt, _ <-chan struct{}) (bool, bool, bool) {
		asked++
		return true, false, true
	})
	if err != nil || !events.ValidRecordingID(started.RecordingID) || started.InterpretationRoute == "" || asked != 1 {
		t.Fatalf("Record() = %+v, %v, asked %d times; want a recording with its route, asked once", started, err, asked)
	}
	return started
}

// refusal is err's *ops.Error, or fails the test.
func refusal(t *testing.T, what string, err error, code string) {
	t.Helper()
	var refused *ops.Error
	if !errors.As(err, &refused) || refused.Code != code {
		t.Errorf("%s = %v; want the daemon's refusal %s", what, err, code)
	}
}

func TestClientAgainstTheDaemon(t *testing.T) {
	home, c := startDaemon(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	st, err := c.Status(ctx)
	if err != nil || st.PID != os.Getpid() || st.MachineID == "" || len(st.Streams) == 0 {
		t.Fatalf("Status() = %+v, %v; want this daemon's", st, err)
	}
	if again, err := client.QueryStatus(home); err != nil || again.MachineID != st.MachineID {
		t.Errorf("QueryStatus(%s) = %+v, %v; want machine %s", home, again, err, st.MachineID)
	}
	if l, err := c.List(ctx); err != nil || len(l) != 0 {
		t.Fatalf("List() on a new store = %v, %v; want none", l, err)
	}
	if id, err := c.ActiveRecording(ctx); !errors.Is(err, client.ErrNoRecording) {
		t.Errorf("ActiveRecording() with none running = %q, %v; want ErrNoRecording", id, err)
	}

	started := record(t, ctx, c)
	if id, err := c.ActiveRecording(ctx); err != nil || id != started.RecordingID {
		t.Errorf("ActiveRecording() = %q, %v; want %s", id, err, started.RecordingID)
	}
	// Follow tells every step once, in order, and returns once the
	// recording stops.
	var mu sync.Mutex
	var told []uint64
	live := make(chan struct{})
	followed := make(chan *events.Recording, 1)
	go func() {
		rec, err := c.Follow(ctx, started.RecordingID, client.Follower{
			Step: func(s events.Step) { mu.Lock(); told = append(told, s.Seq); mu.Unlock() },
			Live: func() { close(live) },
		})
		if err != nil {
			t.Errorf("Follow() = %v", err)
		}
		followed <- rec
	}()
	<-live
	sum, err := c.Stop(ctx, started.RecordingID)
	if err != nil || sum.StepCount == 0 {
		t.Fatalf("Stop() = %+v, %v; want the summary of the steps", sum, err)
	}
	rec := <-followed
	mu.Lock()
	if rec == nil || len(rec.Steps) != sum.StepCount || len(told) != sum.StepCount || !slices.IsSorted(told) {
		t.Errorf("Follow() told seqs %v; want each of the %d steps once, in order", told, sum.StepCount)
	}
	mu.Unlock()

	l, err := c.List(ctx)
	if err != nil || len(l) != 1 || l[0].RecordingID != started.RecordingID || l[0].State != "stopped" {
		t.Fatalf("List() = %+v, %v; want the stopped recording", l, err)
	}
	got, err := c.Fetch(ctx, started.RecordingID)
	if err != nil || got.RecordingID != started.RecordingID || len(got.Steps) != sum.StepCount {
		t.Fatalf("Fetch() = %v; want the recording's %d steps", err, sum.StepCount)
	}
	applied, err := c.Review(ctx, ops.ReviewRequest{RecordingID: started.RecordingID, RemovedStepSeqs: []uint64{got.Steps[0].Seq}})
	if err != nil || applied.StepCount != sum.StepCount-1 {
		t.Errorf("Review(remove one) = %+v, %v; want %d steps kept", applied, err, sum.StepCount-1)
	}
	draft, err := c.DraftSkill(ctx, api.SkillBuildRequest{Recordings: []string{started.RecordingID}})
	if err != nil || draft.Saved {
		t.Errorf("DraftSkill() = %+v, %v; want a draft, not saved", draft, err)
	}
	if list, err := c.Skills(ctx); err != nil || len(list.Skills) != 0 {
		t.Errorf("Skills() = %+v, %v; want none kept", list, err)
	}
	key, err := c.ReplayKey(ctx)
	if err != nil || len(key) < rows.MinSaltSize {
		t.Errorf("ReplayKey() = %d bytes, %v; want at least %d", len(key), err, rows.MinSaltSize)
	}
	if again, _ := c.ReplayKey(ctx); string(again) != string(key) {
		t.Error("ReplayKey() twice: two keys; want the same one for every run")
	}
	if p, err := c.Pairing(ctx); err != nil || p.URL == "" || p.User == "" || p.Password == "" {
		t.Errorf("Pairing() = %v; want the extension's details", err)
	}

	// The consent queue: nothing remembered, and a prompt answered twice
	// is refused.
	if cs, err := c.Consent().Choices(ctx); err != nil || len(cs) != 0 {
		t.Errorf("Consent().Choices() = %+v, %v; want none remembered", cs, err)
	}
	if n, err := c.Consent().ForgetAll(ctx); err != nil || n != 0 {
		t.Errorf("Consent().ForgetAll() = %d, %v; want 0", n, err)
	}
	var refusedConsent *ops.Error
	if err := c.Consent().Deny(ctx, "nope"); !errors.As(err, &refusedConsent) {
		t.Errorf("Consent().Deny(no such prompt) = %v; want the service's refusal", err)
	}

	// Refusals come back as the service's *ops.Error.
	missing := "rec_00000000-0000-4000-8000-000000000000"
	_, err = c.Fetch(ctx, missing)
	refusal(t, "Fetch(missing)", err, ops.CodeRecordingNotFound)
	_, err = c.Stop(ctx, missing)
	refusal(t, "Stop(missing)", err, ops.CodeRecordingNotFound)
	_, err = c.Frame(ctx, started.RecordingID, "nope")
	var refused *ops.Error
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "frame nope") {
		t.Errorf("Frame(no such ref) = %v; want a refusal naming the frame", err)
	}
	_, err = c.Skill(ctx, "sk_missing", 0)
	if !errors.As(err, &refused) {
		t.Errorf("Skill(missing) = %v; want a refusal", err)
	}
	_, err = c.BuildSkill(ctx, api.SkillBuildRequest{Name: "x"})
	if !errors.As(err, &refused) {
		t.Errorf("BuildSkill(no recordings) = %v; want a refusal", err)
	}

	// The credentials file is the daemon's: a copy others can read is refused.
	if err := os.Chmod(filepath.Join(home, api.ClientFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Dial(home); err == nil || !strings.Contains(err.Error(), "readable by other users") {
		t.Errorf("Dial(credentials mode 0644) = %v; want refused", err)
	}
}

func TestDialWithoutADaemon(t *testing.T) {
	if _, err := client.QueryStatus(t.TempDir()); !errors.Is(err, client.ErrNotRunning) {
		t.Errorf("QueryStatus(empty data dir) = %v; want ErrNotRunning", err)
	}
	if _, err := client.Dial(t.TempDir()); !errors.Is(err, client.ErrNotRunning) {
		t.Errorf("Dial(empty data dir) = %v; want ErrNotRunning", err)
	}
	home := t.TempDir()
	// A daemon that wrote its file and died: nothing answers at the URL.
	if err := os.WriteFile(filepath.Join(home, api.ClientFile), []byte(`{"url":"nats://127.0.0.1:1","user":"cli","password":"p"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Dial(home); !errors.Is(err, client.ErrNotRunning) {
		t.Errorf("Dial(stale credentials) = %v; want ErrNotRunning", err)
	}
	if err := os.WriteFile(filepath.Join(home, api.ClientFile), []byte(`{"url":"nats://127.0.0.1:1","user":"extension","password":"p"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Dial(home); err == nil || !strings.Contains(err.Error(), "not the CLI's") {
		t.Errorf("Dial(another role's credentials) = %v; want refused", err)
	}
}

// TestRecordDeclined: a recording the person declines does not start.
func TestRecordDeclined(t *testing.T) {
	_, c := startDaemon(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req := ops.ConsentRequest{Mode: capture.ModeDemonstration, InterpretationRoute: "extract_then_cloud", Channels: []string{capture.ChannelFloor}}
	started, err := c.Record(ctx, req, func(api.ConsentPrompt, <-chan struct{}) (bool, bool, bool) { return false, false, true })
	if !errors.Is(err, client.ErrConsentDeclined) || started.RecordingID != "" {
		t.Errorf("Record(declined) = %+v, %v; want ErrConsentDeclined and no recording", started, err)
	}
	if id, err := c.ActiveRecording(ctx); !errors.Is(err, client.ErrNoRecording) {
		t.Errorf("ActiveRecording() after a declined recording = %q, %v; want ErrNoRecording", id, err)
	}
}
