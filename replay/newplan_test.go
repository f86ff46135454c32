package replay

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay/rows"
	"github.com/reprise-dev/reprise/skills"
)

func TestNewPlan(t *testing.T) {
	skill := &skills.Skill{Version: 1, Name: "new customer",
		Parameters: []skills.Parameter{
			{Name: "name", Column: "Name", Type: "text"},
			{Name: "email", Column: "E-mail", Type: "email"},
		},
		DedupeKey: []string{"email"},
	}
	doc := []byte("name: new customer\n")
	salt := bytes.Repeat([]byte{7}, rows.MinSaltSize)
	row := func(n int, name, email string) rows.Row {
		return rows.Row{N: n, Line: n + 1, Values: map[string]string{"name": name, "email": email}}
	}
	key := func(r rows.Row) string {
		k, err := rows.DedupeKey(salt, skill, r)
		if err != nil {
			t.Fatalf("DedupeKey() error: %v", err)
		}
		return k
	}
	ann, bob, broken := row(1, "Ann", "ann@example.com"), row(2, "Bob", "bob@example.com"), row(3, "Cy", "Zyzzyva7731")
	upper := func(r rows.Row) (map[string]string, error) {
		if r.N == 2 {
			return nil, errors.New("row 2 refused\nby the caller")
		}
		return map[string]string{"name": strings.ToUpper(r.Values["name"])}, nil
	}

	tests := []struct {
		name    string
		rows    []rows.Row
		o       PlanOptions
		want    []Row
		wantBad []int
		wantErr error
	}{
		{name: "keyed", rows: []rows.Row{ann, bob}, o: PlanOptions{RunID: "run_1", CSV: "fp", Salt: salt},
			want: []Row{{N: 1, Values: ann.Values, Key: key(ann)}, {N: 2, Values: bob.Values, Key: key(bob)}}},
		{name: "a bad cell is left out", rows: []rows.Row{ann, broken, bob}, o: PlanOptions{RunID: "run_1", Salt: salt},
			want: []Row{{N: 1, Values: ann.Values, Key: key(ann)}, {N: 2, Values: bob.Values, Key: key(bob)}}, wantBad: []int{3}},
		{name: "short salt", rows: []rows.Row{ann}, o: PlanOptions{RunID: "run_1", Salt: salt[:3]}, wantErr: rows.ErrSalt},
		{name: "no salt", rows: []rows.Row{ann}, o: PlanOptions{RunID: "run_1"}, wantErr: rows.ErrSalt},
		{name: "short salt, no good row", rows: []rows.Row{broken}, o: PlanOptions{RunID: "run_1"}, wantBad: []int{3}},
		{name: "no keys", rows: []rows.Row{ann, bob}, o: PlanOptions{RunID: "dry_1", NoKeys: true},
			want: []Row{{N: 1, Values: ann.Values}, {N: 2, Values: bob.Values}}},
		{name: "the caller's fill", rows: []rows.Row{ann, bob, broken}, o: PlanOptions{RunID: "dry_1", NoKeys: true, Fill: upper},
			want: []Row{{N: 1, Values: map[string]string{"name": "ANN"}}, {N: 3, Values: map[string]string{"name": "CY"}}}, wantBad: []int{2}},
		{name: "no rows", o: PlanOptions{RunID: "run_1", Salt: salt}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, bad, err := NewPlan("sk_1", skill, doc, tt.rows, tt.o)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || plan != nil {
					t.Fatalf("NewPlan() = %v, %v; want %v", plan, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("NewPlan() error: %v", err)
			}
			if plan.RunID != tt.o.RunID || plan.SkillID != "sk_1" || plan.Skill != skill || plan.Digest != Digest(doc) || plan.CSV != tt.o.CSV {
				t.Errorf("NewPlan() = run %q skill %q digest %q csv %q; want %q, sk_1, %q, %q", plan.RunID, plan.SkillID, plan.Digest, plan.CSV, tt.o.RunID, Digest(doc), tt.o.CSV)
			}
			if len(plan.Rows) != len(tt.want) {
				t.Fatalf("NewPlan() rows = %+v; want %+v", plan.Rows, tt.want)
			}
			for i, r := range plan.Rows {
				w := tt.want[i]
				if r.N != w.N || r.Key != w.Key || !maps.Equal(r.Values, w.Values) {
					t.Errorf("NewPlan() row %d = %+v; want %+v", i, r, w)
				}
			}
			var gotBad []int
			for _, b := range bad {
				gotBad = append(gotBad, b.N)
				res := b.Result()
				if res.N != b.N || res.Outcome != OutcomeSkipped || res.Step != -1 || !strings.HasPrefix(res.Reason, "refused before the run: ") || strings.Contains(res.Reason, "\n") {
					t.Errorf("BadRow.Result() = %+v; want row %d skipped before the run, on one line", res, b.N)
				}
				if strings.Contains(b.Why(), "Zyzzyva7731") {
					t.Errorf("BadRow.Why() = %q; it quotes the row's value", b.Why())
				}
			}
			if !slices.Equal(gotBad, tt.wantBad) {
				t.Errorf("NewPlan() bad rows = %v; want %v", gotBad, tt.wantBad)
			}
			// A bad row keeps its dedupe key: it may be one filed before.
			if len(bad) > 0 && len(tt.o.Salt) >= rows.MinSaltSize && bad[0].Key != key(broken) {
				t.Errorf("bad row %d has key %q; want its dedupe key", bad[0].N, bad[0].Key)
			}
		})
	}
}

func TestNewPlanRunID(t *testing.T) {
	skill := &skills.Skill{Name: "x"}
	a, _, errA := NewPlan("sk", skill, nil, nil, PlanOptions{})
	b, _, errB := NewPlan("sk", skill, nil, nil, PlanOptions{})
	if errA != nil || errB != nil {
		t.Fatalf("NewPlan() errors: %v, %v", errA, errB)
	}
	if !events.ValidRunID(a.RunID) || a.RunID == b.RunID {
		t.Errorf("NewPlan() run ids = %q, %q; want two different valid ones", a.RunID, b.RunID)
	}
}
