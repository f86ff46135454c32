package recorder

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/redact"
)

// timeoutImport bounds one import: a long flow's steps go through the
// redact stage one by one.
const timeoutImport = 2 * time.Minute

// ModeImport is the mode of a recording read from another tool's file:
// nothing was captured on this machine, so it needs no consent, and its
// channel is the file's format.
const ModeImport = "import"

// importFormats are the formats a recording may be imported from.
var importFormats = map[string]bool{"chrome-recorder": true, "selenium-ide": true}

// ImportRecording stores steps read from another tool's file as a
// stopped recording. They take the captured steps' way: secrets dropped
// at once (redact.Hygiene), the redact stage, sealed at rest. Like a
// demonstration, it must be reviewed before a skill is built from it.
func (r *Recorder) ImportRecording(ctx context.Context, req ops.ImportRequest) (ops.Summary, error) {
	if !importFormats[req.Format] {
		return ops.Summary{}, ops.Errorf(ops.CodeInvalidRequest, "format must be chrome-recorder or selenium-ide")
	}
	if len(req.Steps) == 0 || len(req.Steps) > ops.MaxImportSteps {
		return ops.Summary{}, ops.Errorf(ops.CodeInvalidRequest, "an imported recording holds 1 to %d steps, not %d", ops.MaxImportSteps, len(req.Steps))
	}
	for i := range req.Steps {
		if err := req.Steps[i].Validate(); err != nil {
			return ops.Summary{}, ops.Errorf(ops.CodeInvalidRequest, "step %d: %v", i+1, err)
		}
	}
	if err := r.checkFree(); err != nil {
		return ops.Summary{}, err
	}
	id, err := newRecordingID()
	if err != nil {
		return ops.Summary{}, err
	}
	started := events.RecordingStarted{
		RecordingID: id, Version: events.SchemaVersion, CreatedAt: events.Stamp(r.cfg.Now()),
		MachineID: r.cfg.MachineID, Mode: ModeImport, InterpretationRoute: interpret.RouteExtractThenCloud, Channels: []string{req.Format},
	}
	if _, err := r.pub.Publish(ctx, events.RecordingSubject(id, events.RecStarted), id+":started", &started); err != nil {
		return ops.Summary{}, err
	}
	var lost uint64
	for i := range req.Steps {
		step := req.Steps[i]
		step.Seq = uint64(i + 1)
		redact.Hygiene(&step)
		if !r.capture(ctx, id, &step, 5) {
			lost++
		}
	}
	if err := r.waitRedacted(ctx, id); err != nil {
		return ops.Summary{}, err
	}
	stopped := events.RecordingStopped{StoppedAt: events.Stamp(r.cfg.Now()), Dropped: lost}
	if _, err := r.pub.Publish(ctx, events.RecordingSubject(id, events.RecStopped), id+":stopped", &stopped); err != nil {
		return ops.Summary{}, err
	}
	rec, err := r.recs.Fold(ctx, id)
	if err != nil {
		return ops.Summary{}, err
	}
	sum := rec.Summary()
	r.audit(ctx, "recording.imported", map[string]string{"recording_id": id, "format": req.Format, "step_count": strconv.Itoa(sum.StepCount)})
	r.log.Info("recording imported", "recording_id", id, "format", req.Format, "steps", sum.StepCount)
	if err := r.retain(ctx); err != nil {
		r.log.Warn("retention: could not evict an old recording", "err", err)
	}
	return sum, nil
}

// ImportServiceName is the import service's name in `nats micro ls`.
const ImportServiceName = "reprise-import"

// ServeImport answers events.LocalRecordingsImport for the local CLI.
func (r *Recorder) ServeImport(nc *nats.Conn) (*ops.Local, error) {
	return ops.ServeLocal(nc, ops.LocalService{
		Name: ImportServiceName, Description: "stores recordings read from other tools' files, for the local CLI",
		Endpoints: []ops.Endpoint{{Name: "import", Subject: events.LocalRecordingsImport, Timeout: timeoutImport, Handle: func(ctx context.Context, body []byte) ([]byte, error) {
			var req ops.ImportRequest
			if err := ops.DecodeLocal("recordings import", body, &req); err != nil {
				return nil, err
			}
			sum, err := r.ImportRecording(ctx, req)
			if err != nil {
				return nil, fmt.Errorf("import a recording: %w", err)
			}
			return json.Marshal(sum)
		}}},
		Logger: r.log,
	})
}
