package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/heal"
	"github.com/reprise-dev/reprise/replay/hub"
)

// TestWordHint: a row's reason, in the library's terms, reads as it always
// did on the terminal, with the flag that changes it.
func TestWordHint(t *testing.T) {
	for _, tc := range []struct {
		reason string
		hint   replay.Hint
		want   string
	}{
		{"already filed by run run_a", replay.HintAgain, "already filed by run run_a (--again files it again)"},
		{"may have been filed: check it (x)", replay.HintAgainAnyway, "may have been filed: check it (x); --again files it anyway"},
		{"not run: the run stopped at row 2", replay.HintOnErrorStop, "not run: the run stopped at row 2 (--on-error stop)"},
		{"not run: rows 3 and 4 failed: " + replay.Systematic + "; fix the cause, then resume the run: R", replay.HintOnErrorAuto,
			"not run: rows 3 and 4 failed: the failures look systematic (--on-error auto); fix the cause, then resume the run: R"},
		{"not run: gone; nothing was filed", replay.HintResume, "not run: gone; nothing was filed: --resume queues it again"},
		{"committed", replay.HintNone, "committed"},
	} {
		if got := wordHint(tc.reason, tc.hint); got != tc.want {
			t.Errorf("wordHint(%q, %q) = %q; want %q", tc.reason, tc.hint, got, tc.want)
		}
	}
}

// TestWordError: the libraries' sentinels and the daemon's refusals read
// with the CLI's commands, wrapped or not.
func TestWordError(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("status: %w", client.ErrNotRunning), "status: the reprise daemon is not running (start it with `reprise daemon`)"},
		{client.ErrNoRecording, "no recording is running; `reprise recordings list` shows the kept ones"},
		{fmt.Errorf("fetch: %w", ops.Errorf(ops.CodeRecordingNotFound, "no recording %q on this shim (it may have been evicted)", "rec_x")),
			`fetch: RECORDING_NOT_FOUND: no recording "rec_x" on this shim (it may have been evicted); ` + "`reprise recordings list` shows those kept"},
		{&hub.RunKeyError{Run: "run_a", Key: &hub.KeyError{Theirs: "k1", Ours: "k2"}},
			`a row of run "run_a" cannot be opened here: it was made under hub key "k1"; this machine holds hub key k2; copy the hub key file of the machine that started the run (hub.key in its data dir, or its --hub-key) here, then start the worker again`},
		{fmt.Errorf("open session: %w", &heal.DamagedError{Path: "/d/cache/s.json", Skill: "s", Err: errors.New("bad json")}),
			"open session: the replay cache /d/cache/s.json is damaged (bad json): remove it with reprise cache clear s"},
		{fmt.Errorf("draft the skill: %w", ops.Errorf(ops.CodeSkillTooBig, "800 steps a row")),
			"draft the skill: SKILL_TOO_BIG: 800 steps a row (`reprise recordings review REC --remove SEQ,...`)"},
		{&browser.ProfileNameError{Name: "no good"},
			`--profile "no good": name a profile with letters, digits, '-' and '_' (kept in the data dir), or give a folder's path`},
		{fmt.Errorf("run: %w", &browser.ProfileInUseError{Holder: "run r (pid 1)"}),
			"run: browser profile (the default) is in use by run r (pid 1): wait for it to end, or pass another --profile"},
	} {
		err := wordKeyError(tc.err)
		if got := wordError(err); got != tc.want {
			t.Errorf("wordError(%v) = %q; want %q", tc.err, got, tc.want)
		}
	}
}
