package daemon

import (
	"context"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skillbook"
)

// serveSkills answers the CLI's skill requests: built from reviewed
// recordings only, with steps no channel resolved named by OCR of their
// frames, on this machine.
func (d *Daemon) serveSkills(ctx context.Context, aud *auditor) (*skillbook.Service, error) {
	book, err := skillbook.Open(ctx, d.js)
	if err != nil {
		return nil, err
	}
	svc := &skillbook.Service{
		Book:     book,
		Reviewed: d.rec.Reviewed,
		Fetch: func(ctx context.Context, recID string) (*events.Recording, error) {
			return d.rec.FetchRecording(ctx, ops.RecordingRef{RecordingID: recID})
		},
		Answers: d.rec.Answers,
		Confirm: d.rec.Confirm,
		Enrich: func(ctx context.Context, rec *events.Recording) {
			x := interpret.Local(ctx, func(ctx context.Context, ref string) ([]byte, error) {
				return d.rec.Frame(ctx, rec.RecordingID, ref)
			})
			if n := x.LabelUnresolved(ctx, rec); n > 0 {
				d.log.Info("steps named by OCR", "recording_id", rec.RecordingID, "steps", n)
			}
		},
		Audit: aud,
		Log:   d.log.With("component", "skills"),
	}
	return svc, svc.Serve(d.nc)
}
