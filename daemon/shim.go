package daemon

import (
	"context"
	"fmt"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/chrome"
	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/computer/script"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/recorder"
	"github.com/reprise-dev/reprise/recordings"
	"github.com/reprise-dev/reprise/skillbook"
)

// shim is the ops.Service: consent from the consent gate, the recording ops
// from the recorder.
type shim struct {
	*recorder.Recorder
	consent *consentGate
	skills  *skillbook.Service
	grants  *computer.Service
	runner  *script.Runner
	d       *Daemon
}

var (
	_ ops.Service         = (*shim)(nil)
	_ ops.ComputerService = (*shim)(nil)
)

// RequestConsent implements REQUEST_RECORDING_CONSENT.
func (s *shim) RequestConsent(ctx context.Context, req ops.ConsentRequest) (ops.ConsentResult, error) {
	return s.consent.request(ctx, req)
}

// startOps brings up the capture registry, the recorder and the ops server.
func (d *Daemon) startOps(ctx context.Context, sources []capture.Source, maxConcurrent int) error {
	aud, err := d.openAudit(ctx)
	if err != nil {
		return err
	}
	d.audit = aud
	gate, err := newConsentGate(ctx, d)
	if err != nil {
		return err
	}
	d.consent = gate
	// The browser channel listens for the extension for the daemon's life.
	browser, err := chrome.New(d.nc, d.log)
	if err != nil {
		return err
	}
	d.browser = browser
	d.recs = recordings.New(d.js, recordings.NewSealers(d.keys), d.log)
	d.rec = recorder.New(recorder.Config{
		JS:        d.js,
		NC:        d.nc,
		MachineID: d.srv.MachineID(),
		Registry:  capture.NewRegistry(append(sources, browser)...),
		Consent:   gate.consume,
		Keys:      d.keys,
		Keep:      d.keep,
		Audit:     aud,
		Logger:    d.log,
		Router:    router(d.localModel),
		FreeSpace: d.freeBytes,
		MinFree:   d.minFree,
		// The recorder seals with the read model's sealers and folds with it.
		Recordings: d.recs,
	})
	if err := d.rec.StartRedactStage(ctx); err != nil {
		return err
	}
	// Picking up a recording the previous run left open may wait for the
	// redact stage, whose unacked steps come back only after their ack
	// wait: do it in the background, so the daemon is ready at once.
	go func() {
		rctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := d.rec.Recover(rctx); err != nil {
			d.log.Warn("could not pick up recordings left open by the previous run", "err", err)
		}
		// Then every kept recording is read back once, so damage on disk
		// is said now (status, doctor), not at the next fetch.
		cctx, stop := context.WithTimeout(context.Background(), 10*time.Minute)
		defer stop()
		context.AfterFunc(d.closing, stop)
		if err := d.recs.CheckStore(cctx); err != nil && cctx.Err() == nil {
			d.log.Error("could not check the store", "err", err)
		}
	}()
	if _, err := d.recs.Serve(d.nc); err != nil {
		return fmt.Errorf("serve recordings: %w", err)
	}
	if _, err := d.rec.ServeImport(d.nc); err != nil {
		return fmt.Errorf("serve imports: %w", err)
	}
	skills, err := d.serveSkills(ctx, aud)
	if err != nil {
		return err
	}
	grants, runner, err := d.serveComputer(aud)
	if err != nil {
		return err
	}
	d.runner = runner
	d.ops, err = ops.NewServer(ctx, d.js, &shim{Recorder: d.rec, consent: gate, skills: skills, grants: grants, runner: runner, d: d}, ops.Config{
		Subject:       events.OpsSubject(d.srv.MachineID()),
		MaxConcurrent: maxConcurrent,
		Timeout:       3 * time.Minute,
		Logger:        d.log,
	})
	if err != nil {
		return err
	}
	return d.ops.Serve(d.nc)
}
