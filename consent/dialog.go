package consent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reprise-dev/reprise/api"
)

// Zenity asks with GTK dialogs through the zenity command (Linux desktops).
// The first dialog is the prompt, with Deny focused so a stray Return never
// approves; the second asks whether to remember the answer, with "Just this
// once" focused. Exit status 0 is yes, 1 is no (or the window closed).
type Zenity struct {
	// Path is the zenity binary; empty means "zenity" on PATH.
	Path string
	// Env is added to the dialog's environment, and Available reads DISPLAY
	// and WAYLAND_DISPLAY there first: a test points it at its own Xvfb.
	Env []string
}

var _ Prompter = (*Zenity)(nil)

// Name implements Prompter.
func (z *Zenity) Name() string { return "zenity" }

// Available implements Prompter.
func (z *Zenity) Available() (bool, string) {
	return dialogAvailable(orDefault(z.Path, "zenity"), z.Env)
}

// Ask implements Prompter.
func (z *Zenity) Ask(ctx context.Context, p api.ConsentPrompt) (Decision, error) {
	return askTwice(ctx, orDefault(z.Path, "zenity"), z.Env, zenityArgs(p.Title, p.Body, p.Approve, p.Deny), remembering(p, zenityArgs(rememberTitle, rememberText, RememberYes, RememberNo)))
}

// zenityArgs wraps the text itself: GTK's own wrapping ignores --width
// and stretches a long prompt across the whole screen. No icon: the
// calibrated prompt must carry no warning iconography.
func zenityArgs(title, text, yes, no string) []string {
	return []string{
		"--question", "--title", title, "--text", wrap(text, wrapWidth), "--ok-label", yes, "--cancel-label", no,
		"--default-cancel", "--no-markup", "--no-wrap", "--icon-name", "",
	}
}

// wrapWidth is the dialogs' line length in characters.
const wrapWidth = 76

// wrap breaks each line of s at spaces so no line is longer than width
// runes (unless one word is); a "• " item's continuation lines are
// indented under its text.
func wrap(s string, width int) string {
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		indent := ""
		if strings.HasPrefix(line, "• ") {
			indent = "  "
		}
		n := 0
		for j, word := range strings.Fields(line) {
			w := utf8.RuneCountInString(word)
			switch {
			case j == 0:
			case n+1+w > width:
				b.WriteString("\n" + indent)
				n = len(indent)
			default:
				b.WriteByte(' ')
				n++
			}
			b.WriteString(word)
			n += w
		}
	}
	return b.String()
}

// KDialog asks with KDE dialogs through the kdialog command: the prompt,
// then whether to remember the answer, as two yes/no dialogs.
type KDialog struct {
	// Path is the kdialog binary; empty means "kdialog" on PATH.
	Path string
	// Env is added to the dialog's environment, as for Zenity.
	Env []string
}

var _ Prompter = (*KDialog)(nil)

// Name implements Prompter.
func (k *KDialog) Name() string { return "kdialog" }

// Available implements Prompter.
func (k *KDialog) Available() (bool, string) {
	return dialogAvailable(orDefault(k.Path, "kdialog"), k.Env)
}

// Ask implements Prompter.
func (k *KDialog) Ask(ctx context.Context, p api.ConsentPrompt) (Decision, error) {
	return askTwice(ctx, orDefault(k.Path, "kdialog"), k.Env, kdialogArgs(p.Title, p.Body, p.Approve, p.Deny), remembering(p, kdialogArgs(rememberTitle, rememberText, RememberYes, RememberNo)))
}

func kdialogArgs(title, text, yes, no string) []string {
	return []string{"--title", title, "--yesno", plainForQt(text), "--yes-label", yes, "--no-label", no}
}

// plainForQt keeps Qt from reading the text as rich text: it does when the
// text looks like it holds a tag.
func plainForQt(s string) string { return strings.ReplaceAll(s, "<", "\u2039") }

const (
	rememberTitle = "Remember this choice?"
	rememberText  = RememberQuestion + "\n\nYou can change it at any time with `reprise consent forget`."
)

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// dialogAvailable reports whether bin can show a window: a display to show
// it on, and the binary.
func dialogAvailable(bin string, env []string) (bool, string) {
	if lookupEnv(env, "DISPLAY") == "" && lookupEnv(env, "WAYLAND_DISPLAY") == "" {
		return false, "no graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set)"
	}
	if _, err := exec.LookPath(bin); err != nil {
		return false, bin + " is not installed"
	}
	return true, ""
}

// lookupEnv returns key's value in env (last one wins), else in the process.
func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return os.Getenv(key)
}

// remembering is the remember question's dialog, or nil for a prompt
// answered once.
func remembering(p api.ConsentPrompt, args []string) []string {
	if p.Once {
		return nil
	}
	return args
}

// askTwice asks the prompt, then whether to remember the answer. An answer
// to the first question stands even if the second is never answered.
func askTwice(ctx context.Context, bin string, env, prompt, remember []string) (Decision, error) {
	yes, err := runQuestion(ctx, bin, env, prompt)
	if err != nil {
		return Decision{}, err
	}
	if remember == nil {
		return Decision{Approved: yes}, nil
	}
	keep, err := runQuestion(ctx, bin, env, remember)
	if err != nil {
		return Decision{Approved: yes}, nil
	}
	return Decision{Approved: yes, Remember: keep}, nil
}

// runQuestion runs one yes/no dialog. The dialog is killed, and so closed,
// when ctx ends.
func runQuestion(ctx context.Context, bin string, env, args []string) (bool, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 2 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1 && !noDisplay(stderr.String()):
		return false, nil
	case errors.As(err, &exit):
		return false, fmt.Errorf("%s exited with status %d: %s", bin, exit.ExitCode(), lastLine(stderr.String()))
	}
	return false, fmt.Errorf("run %s: %w", bin, err)
}

// noDisplay reports whether a dialog's stderr says it never reached the
// screen: zenity then exits 1, as for "no", but nobody said no.
func noDisplay(stderr string) bool {
	s := strings.ToLower(stderr)
	return strings.Contains(s, "cannot open display") || strings.Contains(s, "could not connect to display")
}

// lastLine is the last non-empty line of a dialog's stderr, which says why
// it failed ("cannot open display").
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	line := strings.TrimSpace(lines[len(lines)-1])
	if len(line) > 200 {
		line = line[:200]
	}
	if line == "" {
		return "no message"
	}
	return line
}
