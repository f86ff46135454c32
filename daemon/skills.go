package daemon

import (
	"context"
	"fmt"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/rows"
	"github.com/reprise-dev/reprise/skillbook"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/skills/learn"
	"github.com/reprise-dev/reprise/store"
)

// skillsKeyName is the key the skill book is sealed with at rest.
const skillsKeyName = "skills-seal"

// serveSkills answers the CLI's skill requests: built from reviewed
// recordings only, with steps no channel resolved named by OCR of their
// frames, on this machine.
func (d *Daemon) serveSkills(ctx context.Context, aud *auditor) (*skillbook.Service, error) {
	key, err := store.LoadOrCreate(d.keys, skillsKeyName, store.NewDataKey)
	if err != nil {
		return nil, fmt.Errorf("skill book key: %w", err)
	}
	book, err := skillbook.Open(ctx, d.js, key)
	if err != nil {
		return nil, err
	}
	svc := &skillbook.Service{
		Book:     book,
		Reviewed: d.recs.Reviewed,
		Fetch:    d.recs.Fetch,
		Answers:  d.recs.Answers,
		Confirm:  d.rec.Confirm,
		Enrich: func(ctx context.Context, rec *events.Recording) int {
			x := interpret.Local(ctx, func(ctx context.Context, ref string) ([]byte, error) {
				return d.recs.Frame(ctx, rec.RecordingID, ref)
			})
			n, unread := x.LabelUnresolved(ctx, rec)
			if n > 0 || unread > 0 {
				d.log.Info("steps named by OCR", "recording_id", rec.RecordingID, "steps", n, "unread", unread)
			}
			return unread
		},
		Lost:        d.recs.Lost, // the stop alone: a big recording is not read twice
		Audit:       aud,
		Log:         d.log.With("component", "skills"),
		FiledByHand: d.markFiledByHand,
	}
	return svc, svc.Serve(d.nc)
}

// markFiledByHand records the rows a skill's recordings filed by hand
// under their dedupe keys, the way replay keys a CSV's rows, so a replay of
// a CSV that holds them skips them: demonstrating the first rows of the
// CSV you then replay must not file those rows twice.
func (d *Daemon) markFiledByHand(ctx context.Context, skillID string, skill *skills.Skill, filed []learn.Demonstration) error {
	salt, err := d.replayKey()
	if err != nil {
		return err
	}
	for i, f := range filed {
		key, err := rows.DedupeKey(salt, skill, rows.Row{N: i + 1, Values: f.Cells})
		if err != nil {
			return err
		}
		if err := replay.MarkFiledByHand(ctx, d.js, skillID, f.RecordingID, i+1, key); err != nil {
			return err
		}
	}
	return nil
}
