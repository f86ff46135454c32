package replay

import (
	"context"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// Filed maps the dedupe keys of rows filed before to who filed them: a
// run, or the person by hand in a recording.
type Filed map[string]string

// FiledBefore reads from js's replay log the rows of skillID that a run
// other than runID, or the person by hand while demonstrating, filed.
func FiledBefore(ctx context.Context, js jetstream.JetStream, skillID, runID string) (Filed, error) {
	earlier, err := earlierKeys(ctx, js, skillID, runID)
	if err != nil {
		return nil, err
	}
	f := Filed{}
	for k, e := range earlier {
		if e.committed {
			f[k] = filedBy(e)
		}
	}
	return f, nil
}

// Refused reports a row refused before the run as what it is: a row filed
// before stays filed before, whatever else refuses its cells now (a row
// filed by hand while demonstrating, whose cells the skill reads
// otherwise). It says whether the row was filed before.
func (f Filed) Refused(b BadRow) (RowResult, bool) {
	rr := b.Result()
	who, ok := f[b.Key]
	if !ok || b.Key == "" {
		return rr, false
	}
	return filedRefused(rr, who), true
}

// filedRefused words a refused row that who filed before.
func filedRefused(rr RowResult, who string) RowResult {
	if why, ok := strings.CutPrefix(rr.Reason, refusedPrefix); ok {
		rr.Reason = "already filed by " + who + " (its cells do not fit the skill: " + why + ")"
	}
	return rr
}

// TakeOut takes the rows filed before out of rows, and returns them as
// the run reports them: skipped, saying who filed them. It is for a run
// whose workers do not read this machine's log (a hub's).
func (f Filed) TakeOut(rows []Row) (left []Row, skipped []RowResult) {
	for _, r := range rows {
		who, ok := f[r.Key]
		if !ok || r.Key == "" {
			left = append(left, r)
			continue
		}
		skipped = append(skipped, RowResult{N: r.N, Outcome: OutcomeSkipped, Step: -1, Reason: "already filed by " + who, Hint: HintAgain})
	}
	return left, skipped
}
