package replay

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/replay/rows"
	"github.com/reprise-dev/reprise/skills"
)

// PlanOptions are what NewPlan needs beyond the skill and its rows.
type PlanOptions struct {
	// RunID names the run: a resumed run's id, or empty for a new one
	// (NewRunID).
	RunID string
	// CSV fingerprints the rows (rows.Table.Fingerprint), so a resume can
	// tell it was handed the same ones.
	CSV string
	// Salt keys each row's dedupe key (rows.DedupeKey): the replay key the
	// daemon keeps, the same for every run, or a row filed before looks
	// new. A short one is an error, unless NoKeys.
	Salt []byte
	// NoKeys leaves the rows without dedupe keys: for a dry run, which files
	// nothing and is never resumed.
	NoKeys bool
	// Fill turns a row's cells into the values its steps set. Nil is
	// rows.Row.Fill, which checks each cell against its parameter.
	Fill func(rows.Row) (map[string]string, error)
}

// BadRow is a row NewPlan left out of the plan: its cells do not fit the
// skill. Err names the row, parameters and columns, never a value.
type BadRow struct {
	N   int
	Err error
	// Key is the row's dedupe key where its cells give one: a bad row may
	// still be one filed before.
	Key string
}

// Why is Err on one line, as a report and a list of bad rows show it.
func (b BadRow) Why() string { return strings.ReplaceAll(b.Err.Error(), "\n", "; ") }

// Result is the row as a run reports it when the caller refuses it before
// the run (Options.Refused): skipped, with why.
func (b BadRow) Result() RowResult {
	return RowResult{N: b.N, Outcome: OutcomeSkipped, Step: -1, Reason: refusedPrefix + b.Why(), Key: b.Key}
}

const refusedPrefix = "refused before the run: "

// NewPlan is the plan that fills rs with skill, whose YAML document doc
// names the version (Digest) and skillID the skill. Each row's values come
// from o.Fill and its key from o.Salt; a row Fill refuses is not planned
// but returned in bad, in order, so the caller decides whether the run
// goes on without it. The error is for what no row can fix: a dedupe key
// that cannot be made.
func NewPlan(skillID string, skill *skills.Skill, doc []byte, rs []rows.Row, o PlanOptions) (plan *Plan, bad []BadRow, err error) {
	plan = &Plan{RunID: o.RunID, SkillID: skillID, Skill: skill, Digest: Digest(doc), CSV: o.CSV}
	if plan.RunID == "" {
		plan.RunID = NewRunID()
	}
	fill := o.Fill
	if fill == nil {
		fill = func(r rows.Row) (map[string]string, error) { return r.Fill(skill) }
	}
	for _, r := range rs {
		values, err := fill(r)
		if err != nil {
			b := BadRow{N: r.N, Err: err}
			if !o.NoKeys {
				b.Key, _ = rows.DedupeKey(o.Salt, skill, r) // none when the cells give none
			}
			bad = append(bad, b)
			continue
		}
		key := ""
		if !o.NoKeys {
			if key, err = rows.DedupeKey(o.Salt, skill, r); err != nil {
				return nil, nil, err
			}
		}
		plan.Rows = append(plan.Rows, Row{N: r.N, Values: values, Key: key})
	}
	return plan, bad, nil
}

// NewRunID returns a fresh run id: run_, the UTC time, and 64 random bits
// (events.ValidRunID).
func NewRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "run_" + time.Now().UTC().Format("20060102T150405") + "_" + hex.EncodeToString(b[:])
}
