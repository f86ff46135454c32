package recorder

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/store"
)

// opsService is the recorder as a wire-op service, consent aside.
type opsService struct{ *Recorder }

func (opsService) RequestConsent(context.Context, ops.ConsentRequest) (ops.ConsentResult, error) {
	return ops.ConsentResult{}, nil
}

// TestBigRecordingFetches: a recording of 20,000 steps, megabytes over
// NATS's 1 MB message limit, is fetched whole through the wire op by a CLI
// connected over TCP (the reply comes in parts), and reviewed.
func TestBigRecordingFetches(t *testing.T) {
	if testing.Short() {
		t.Skip("20,000 steps skipped in -short mode")
	}
	s, nc, js := natstest.Start(t, "m_test")
	many := make([]events.Step, 0, 20_000)
	for len(many) < 20_000 {
		many = append(many, formSteps()...)
	}
	many = many[:20_000]
	src := &burst{name: "floor", channels: []string{capture.ChannelFloor}, steps: many, ok: true}
	rec := New(Config{JS: js, NC: nc, MachineID: "m_test", Registry: capture.NewRegistry(src), QueueSize: len(many),
		Consent: func(context.Context, string, string, string, []string) error { return nil },
		Keys:    store.FileKeyStore{Dir: t.TempDir()}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := rec.StartRedactStage(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Close)
	srv, err := ops.NewServer(ctx, js, opsService{rec}, ops.Config{Subject: events.OpsSubject("m_test")})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(nc); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cli, err := nats.Connect(s.ClientURL(), embedded.CLIOptions(s.Password(embedded.RoleCLI))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	client := ops.NewClient(cli, events.OpsSubject("m_test"))

	var started ops.Started
	if err := client.Call(ctx, ops.TypeStart, startReq(capture.ModeDemonstration, "floor"), &started); err != nil {
		t.Fatal(err)
	}
	var sum ops.Summary
	if err := client.Call(ctx, ops.TypeStop, started.Ref(), &sum); err != nil || sum.StepCount != len(many) || sum.LostSteps != 0 {
		t.Fatalf("stop: %+v, %v; want %d steps, none lost", sum, err, len(many))
	}
	var data ops.Data
	if err := client.Call(ctx, ops.TypeFetch, started.Ref(), &data); err != nil {
		t.Fatalf("fetch of %d steps: %v", len(many), err)
	}
	if len(data.Steps) != len(many) || data.Steps[len(many)-1].Seq != uint64(len(many)) {
		t.Fatalf("fetched %d steps; want %d", len(data.Steps), len(many))
	}
	// Peak memory of the whole test process (NATS, recorder, client), for
	// the record; the bound is a benchmark's to hold, not a test's.
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "VmHWM") {
				t.Logf("%d steps fetched; peak RSS of the test process: %s", len(many), strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")))
			}
		}
	}
	var applied ops.ReviewApplied
	if err := client.Call(ctx, ops.TypeApplyReview, ops.ReviewRequest{RecordingID: started.RecordingID, RemovedStepSeqs: []uint64{1}}, &applied); err != nil || applied.StepCount != len(many)-1 {
		t.Fatalf("review: %+v, %v", applied, err)
	}
}
