package daemon

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/pick"
	"github.com/reprise-dev/reprise/replay/rows"
	"github.com/reprise-dev/reprise/replay/session"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/skills/cells"
)

var _ ops.CopilotService = (*shim)(nil)

// ClarifyPrompt implements CLARIFY_PROMPT: the answers given are recorded
// on the recording, and the questions still open come back.
func (s *shim) ClarifyPrompt(ctx context.Context, req ops.ClarifyRequest) (ops.Questions, error) {
	if len(req.Answers) > 0 {
		if err := s.Confirm(ctx, req.RecordingID, req.Answers); err != nil {
			return ops.Questions{}, err
		}
	}
	draft := s.skills.Draft(ctx, api.SkillBuildRequest{Recordings: []string{req.RecordingID}, Header: req.Header})
	if draft.Error != nil {
		return ops.Questions{}, draft.Error
	}
	return ops.Questions{RecordingID: req.RecordingID, Questions: append([]ops.Question{}, draft.Questions...)}, nil
}

// InterpretTurn implements INTERPRET_TURN: the recording's steps from
// from_seq on, told in plain words.
func (s *shim) InterpretTurn(ctx context.Context, req ops.InterpretRequest) (ops.Interpretation, error) {
	rec, err := s.FetchRecording(ctx, ops.RecordingRef{RecordingID: req.RecordingID})
	if err != nil {
		return ops.Interpretation{}, err
	}
	out := ops.Interpretation{RecordingID: rec.RecordingID, Steps: []ops.Told{}}
	for _, st := range rec.Steps {
		if st.Seq >= req.FromSeq {
			out.Steps = append(out.Steps, ops.Told{Seq: st.Seq, Text: interpret.Narrate(st)})
		}
	}
	return out, nil
}

// dryRunRows is how many rows DRY_RUN_REPLAY fills (SPEC 5: rows 1-2).
const dryRunRows = 2

// DryRunReplay implements DRY_RUN_REPLAY: the skill drafted from the
// recordings fills rows 1-2 in a Chromium of the daemon's own and submits
// nothing. Every parameter must be confirmed first.
func (s *shim) DryRunReplay(ctx context.Context, req ops.DryRunRequest) (ops.DryRunResult, error) {
	if len(req.Rows) == 0 {
		return ops.DryRunResult{}, ops.Errorf(ops.CodeInvalidRequest, "rows: give the CSV's first rows, in header's columns")
	}
	sample := req.Rows[:min(len(req.Rows), dryRunRows)]
	draft := s.skills.Draft(ctx, api.SkillBuildRequest{Name: "dry run", Recordings: req.Recordings, Header: req.Header, SampleRows: sample})
	if draft.Error != nil {
		return ops.DryRunResult{}, draft.Error
	}
	if len(draft.Questions) > 0 {
		return ops.DryRunResult{}, ops.Errorf(ops.CodeInvalidRequest, "%d question(s) are open; answer them (CLARIFY_PROMPT) before a dry run", len(draft.Questions))
	}
	skill, err := skills.Parse([]byte(draft.YAML))
	if err != nil {
		return ops.DryRunResult{}, fmt.Errorf("the drafted skill: %w", err)
	}
	sess, err := session.Open(ctx, session.Config{SkillID: "draft", Skill: skill, Doc: []byte(draft.YAML), Rows: sampleRows(skill, req.Header, sample),
		Plan: replay.PlanOptions{
			RunID:  fmt.Sprintf("dry_%d", time.Now().UnixNano()),
			CSV:    "dry-run",
			NoKeys: true, // a dry run files nothing: there is nothing to dedupe
			Fill:   func(r rows.Row) (map[string]string, error) { return dryRunValues(skill, r) },
		},
		JS: s.d.js, DryRun: true, OnError: replay.OnErrorSkip, Logger: s.d.log})
	var bad *session.RowsError
	if errors.As(err, &bad) {
		return ops.DryRunResult{}, bad.Bad[0].Err
	}
	if err != nil {
		return ops.DryRunResult{}, err
	}
	defer sess.Close()
	if len(sess.Bad()) > 0 {
		return ops.DryRunResult{}, sess.Bad()[0].Err
	}
	err = sess.Start(ctx, session.Executor{Options: pick.Options{
		Kind:    pick.Browser,
		Browser: browser.Options{ProfileDir: filepath.Join(s.d.home, "dry-run-profile"), NoSandbox: browser.SandboxOff()},
		Logger:  s.d.log,
	}})
	if err != nil {
		return ops.DryRunResult{}, err
	}
	res, err := sess.Run(ctx, session.RunOptions{})
	if err != nil {
		return ops.DryRunResult{}, err
	}
	out := ops.DryRunResult{Rows: []ops.DryRunRow{}}
	for _, r := range res.Rows {
		out.Rows = append(out.Rows, ops.DryRunRow{Row: r.N, Outcome: r.Outcome, Step: r.Step + 1, Reason: r.Reason})
	}
	return out, nil
}

// sampleRows are the sample's rows for skill, numbered from 1: each
// parameter's cell is the one in its column, as sent.
func sampleRows(skill *skills.Skill, header []string, sample [][]string) []rows.Row {
	out := make([]rows.Row, 0, len(sample))
	for i, row := range sample {
		values := map[string]string{}
		for _, p := range skill.Parameters {
			for j, h := range header {
				if h == p.Column && j < len(row) {
					values[p.Name] = row[j]
				}
			}
		}
		out = append(out, rows.Row{N: i + 1, Values: values})
	}
	return out
}

// dryRunValues maps r's cells onto the skill's options and box states; a
// row without a cell for every parameter, or with one that maps to none,
// refuses the whole dry run.
func dryRunValues(skill *skills.Skill, r rows.Row) (map[string]string, error) {
	for _, p := range skill.Parameters {
		if _, ok := r.Values[p.Name]; !ok {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "row %d has no value for %s (column %q)", r.N, p.Name, p.Column)
		}
	}
	mapped, bad := cells.Values(skill, r.Values)
	for _, p := range skill.Parameters {
		if err := bad[p.Name]; err != nil {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "row %d: %s (column %q) %v", r.N, p.Name, p.Column, err)
		}
	}
	return mapped, nil
}
