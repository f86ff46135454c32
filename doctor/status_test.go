package doctor

import (
	"errors"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/api"
)

func TestDaemonStatusProbes(t *testing.T) {
	down := func() (api.Status, error) { return api.Status{}, errors.New("the reprise daemon is not running") }
	up := func(st api.Status) func() (api.Status, error) { return func() (api.Status, error) { return st, nil } }
	healthy := api.Status{PID: 7, MachineID: "m1", StoreChecked: true, FreeBytes: 9 << 20, MinFreeBytes: 1 << 20}
	damaged := healthy
	damaged.Damaged = []api.RecordingDamage{{RecordingID: "rec_1", Problem: "gap"}}
	for _, tt := range []struct {
		name            string
		status          func() (api.Status, error)
		running, stored string // what each says; "!" first: an error
	}{
		{"not running", down, "!not running", "not running"},
		{"healthy", up(healthy), "running, pid 7, machine m1", "every recording reads back whole; 9 MB free"},
		{"damaged", up(damaged), "running, pid 7", "!damaged: rec_1 (gap)"},
	} {
		for _, p := range []struct {
			probe func(func() (api.Status, error)) func() (string, error)
			want  string
		}{{running, tt.running}, {stored, tt.stored}} {
			got, err := p.probe(tt.status)()
			if strings.HasPrefix(p.want, "!") {
				got, p.want = errString(err), p.want[1:]
			} else if err != nil {
				t.Errorf("%s: %v; want %q", tt.name, err, p.want)
			}
			if !strings.Contains(got, p.want) {
				t.Errorf("%s: %q; want it to say %q", tt.name, got, p.want)
			}
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
