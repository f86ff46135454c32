package consent

import "log/slog"

// MessageBox asks with Windows message boxes (user32 MessageBoxW, Yes/No,
// No the default): the prompt, then whether to remember the answer. A
// message box's buttons cannot be relabelled, so the text says what Yes and
// No mean. It is never Available off Windows.
type MessageBox struct {
	// Logger, if set, is told when the first box is answered and the
	// second (remember the choice?) comes up: content-free.
	Logger *slog.Logger
}

var _ Prompter = (*MessageBox)(nil)

// Name implements Prompter.
func (m *MessageBox) Name() string { return "messagebox" }

// messageBoxText is the prompt's body with the meaning of each button.
func messageBoxText(body, yes, no string) string {
	return body + "\n\nYes: " + yes + "\nNo: " + no
}
