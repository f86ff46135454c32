package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/interop"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/heal"
	"github.com/reprise-dev/reprise/replay/hub"
)

// The libraries say what happened in reprise's terms and return a typed
// error or a hint for what the person can do about it; this file words
// those with the CLI's flags and commands.

// wordHint is a row's reason (or why a run stopped) with its hint worded
// as the flag of `reprise replay` that changes it.
func wordHint(reason string, h replay.Hint) string {
	switch h {
	case replay.HintAgain:
		return reason + " (--again files it again)"
	case replay.HintAgainAnyway:
		return reason + "; --again files it anyway"
	case replay.HintOnErrorStop:
		return reason + " (--on-error stop)"
	case replay.HintOnErrorAuto:
		return strings.Replace(reason, replay.Systematic, replay.Systematic+" (--on-error auto)", 1)
	case replay.HintResume:
		return reason + ": --resume queues it again"
	}
	return reason
}

// wordResult words res's reasons, and why it stopped, with their hints.
func wordResult(res *replay.Result) {
	for i, r := range res.Rows {
		res.Rows[i].Reason, res.Rows[i].Hint = wordHint(r.Reason, r.Hint), replay.HintNone
	}
	res.Stopped, res.StoppedHint = wordHint(res.Stopped, res.StoppedHint), replay.HintNone
}

// wordKeyError words a worker's refusal of a row made under another hub
// key with the flag that names the key file.
func wordKeyError(err error) error {
	var rk *hub.RunKeyError
	if !errors.As(err, &rk) {
		return err
	}
	return fmt.Errorf("a row of run %q cannot be opened here: it was %w; copy the hub key file of the machine that started the run (hub.key in its data dir, or its --hub-key) here, then start the worker again",
		rk.Run, rk.Key)
}

// sentinelWords are the libraries' sentinel errors as the CLI words them:
// with the command that does what they ask.
var sentinelWords = []struct {
	err   error
	words string
}{
	{client.ErrNotRunning, "the reprise daemon is not running (start it with `reprise daemon`)"},
	{client.ErrNoRecording, "no recording is running; `reprise recordings list` shows the kept ones"},
	{client.ErrNoConsentService, "the daemon does not answer consent requests: it may be an older version; restart it with `reprise daemon`"},
}

// codeHints are what the CLI adds to a refusal of the daemon's, by code:
// the command that shows or does what the refusal asks.
var codeHints = map[string]string{
	ops.CodeRecordingNotFound: "; `reprise recordings list` shows those kept",
	ops.CodeSkillNotFound:     "; `reprise skill list` shows those kept",
	ops.CodeReviewRequired:    " (`reprise recordings show REC` shows it; `reprise recordings review REC [--remove SEQ,...] [--redact SEQ,...]` reviews it)",
	ops.CodeSkillTooBig:       " (`reprise recordings review REC --remove SEQ,...`)",
}

// wordError is err as the person at the terminal reads it: the libraries'
// sentinels and the daemon's refusals with the CLI's commands.
func wordError(err error) string {
	msg := err.Error()
	for _, s := range sentinelWords {
		if errors.Is(err, s.err) {
			msg = strings.Replace(msg, s.err.Error(), s.words, 1)
		}
	}
	var format formatError
	if errors.As(err, &format) {
		msg = format.Error()
	}
	var imported *interop.Error
	if errors.As(err, &imported) {
		msg = strings.ReplaceAll(msg, interop.SuccessAnswer, "--confirm success:N=text:...")
	}
	var damaged *heal.DamagedError
	if errors.As(err, &damaged) {
		msg = strings.Replace(msg, damaged.Error(), fmt.Sprintf("the replay cache %s is damaged (%v): remove it with reprise cache clear %s", damaged.Path, damaged.Err, damaged.Skill), 1)
	}
	var badProfile *browser.ProfileNameError
	if errors.As(err, &badProfile) {
		msg = strings.Replace(msg, badProfile.Error(), fmt.Sprintf("--profile %q: name a profile with letters, digits, '-' and '_' (kept in the data dir), or give a folder's path", badProfile.Name), 1)
	}
	var noProfile *browser.NoProfileError
	if errors.As(err, &noProfile) {
		msg = strings.Replace(msg, noProfile.Error(), fmt.Sprintf("--profiles %s: no such profile in the data dir (%s): log in to its site with it on this machine first (reprise browse --profile %s URL)", noProfile.Name, noProfile.Dir, noProfile.Name), 1)
	}
	var inUse *browser.ProfileInUseError
	if errors.As(err, &inUse) {
		msg = strings.Replace(msg, "or use another profile", "or pass another --profile", 1)
	}
	var refused *ops.Error
	if errors.As(err, &refused) && codeHints[refused.Code] != "" {
		msg = strings.Replace(msg, refused.Message, refused.Message+codeHints[refused.Code], 1)
	}
	return msg
}

// wordPromptGone words a consent answer to a prompt no longer waiting
// with the command that lists those that are.
func wordPromptGone(err error) error {
	var refused *ops.Error
	if errors.As(err, &refused) && refused.Code == ops.CodeNotFound {
		return fmt.Errorf("%w; `reprise consent list` shows the waiting ones", err)
	}
	return err
}

// wordDaemonError names the daemon's flag for a capture script it cannot
// play.
func wordDaemonError(err error) error {
	var se *daemon.ScriptError
	if errors.As(err, &se) {
		return fmt.Errorf("--capture-script: %s", se.Why)
	}
	return err
}
