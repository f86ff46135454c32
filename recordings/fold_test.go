package recordings

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
)

func folded(seqs ...uint64) *Folded {
	f := &Folded{ID: "rec_1", Started: &events.RecordingStarted{}, Steps: map[uint64]StoredStep{}, Removed: map[uint64]bool{}, Blanked: map[uint64]bool{}}
	for _, seq := range seqs {
		f.Steps[seq] = StoredStep{Step: &events.Step{Seq: seq, Value: &events.Value{Raw: "v", Type: events.ValueText}}}
	}
	return f
}

func TestMissingSteps(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    *Folded
		want string
	}{
		{"whole", folded(1, 2, 3), ""},
		{"empty", folded(), ""},
		{"a gap", folded(1, 3, 4), "1 of its 4 steps are missing, the first step 2"},
		{"removed by a review", func() *Folded { f := folded(1, 3); f.Removed[2] = true; return f }(), ""},
		{"counted lost at stop", func() *Folded { f := folded(1, 4); f.Stopped = &events.RecordingStopped{Dropped: 2}; return f }(), ""},
		{"more than the stop lost", func() *Folded { f := folded(1, 5); f.Stopped = &events.RecordingStopped{Dropped: 2}; return f }(), "3 of its 5 steps are missing, the first step 2"},
	} {
		if got := tc.f.MissingSteps(); got != tc.want {
			t.Errorf("%s: MissingSteps() = %q; want %q", tc.name, got, tc.want)
		}
	}
}

func TestKeptAppliesReviews(t *testing.T) {
	f := folded(3, 1, 2)
	f.Removed[2] = true
	f.Blanked[3] = true
	shared := f.Steps[3].Step.Value
	kept := f.Kept()
	if len(kept) != 2 || kept[0].Seq != 1 || kept[1].Seq != 3 {
		t.Fatalf("Kept() = %+v; want steps 1 and 3 in order", kept)
	}
	if kept[0].Value.Raw != "v" || kept[1].Value.Raw != "" || !kept[1].Redacted {
		t.Errorf("Kept() values = %q, %q (redacted %v); want step 3 blanked", kept[0].Value.Raw, kept[1].Value.Raw, kept[1].Redacted)
	}
	if shared.Raw != "v" {
		t.Error("Kept blanked the stored step's value in place")
	}
}
