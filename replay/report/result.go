package report

import "github.com/reprise-dev/reprise/replay"

// FromResult is a run's result as the report's rows.
func FromResult(res *replay.Result) []Row {
	var rs []Row
	for _, r := range res.Rows {
		// The report numbers steps from 1, as every message does.
		rs = append(rs, Row{N: r.N, Outcome: r.Outcome, Step: r.Step + 1, Action: r.Action, Reason: r.Reason, Via: r.Via,
			Output: r.Output, Files: r.Files, Notes: r.Notes, Healed: r.Healed, ModelCalls: r.ModelCalls, Tokens: r.Tokens, Proofs: r.Proofs})
	}
	return rs
}
