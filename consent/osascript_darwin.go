package consent

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/reprise-dev/reprise/api"
)

func (o *OSAScript) path() string { return orDefault(o.Path, "/usr/bin/osascript") }

// Available implements Prompter.
func (o *OSAScript) Available() (bool, string) {
	if _, err := exec.LookPath(o.path()); err != nil {
		return false, "osascript is not installed"
	}
	return true, ""
}

// Ask implements Prompter.
func (o *OSAScript) Ask(ctx context.Context, p api.ConsentPrompt) (Decision, error) {
	yes, err := o.dialog(ctx, p.Title, p.Body, p.Approve, p.Deny)
	if err != nil {
		return Decision{}, err
	}
	keep, err := o.dialog(ctx, rememberTitle, rememberText, RememberYes, RememberNo)
	if err != nil {
		return Decision{Approved: yes}, nil
	}
	return Decision{Approved: yes, Remember: keep}, nil
}

// dialog runs one dialog; killing osascript when ctx ends closes it.
func (o *OSAScript) dialog(ctx context.Context, title, text, yes, no string) (bool, error) {
	cmd := exec.CommandContext(ctx, o.path(), "-e", dialogScript(title, text, yes, no))
	cmd.WaitDelay = 2 * time.Second
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		return false, fmt.Errorf("run osascript: %w", err)
	}
	return parseDialogAnswer(string(out), yes, no)
}
