package consent

import (
	"errors"
	"fmt"
	"strings"
)

// OSAScript asks with AppleScript dialogs through the osascript command
// (macOS): the prompt, with Deny as the default button, then whether to
// remember the answer. The script building and output parsing here are
// portable and tested everywhere; running them is osascript_darwin.go.
type OSAScript struct {
	// Path is the osascript binary; empty means /usr/bin/osascript.
	Path string
}

var _ Prompter = (*OSAScript)(nil)

// Name implements Prompter.
func (o *OSAScript) Name() string { return "osascript" }

// appleScriptString quotes s as an AppleScript string literal. Inside one,
// only the backslash and the double quote are special; control characters
// are spelled as the escapes AppleScript knows, and others are dropped so a
// requester's name cannot break the script.
func appleScriptString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x7f {
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// dialogScript is an AppleScript that shows text under title with the two
// buttons, deny first and the default, and prints the button pressed.
// There is no cancel button, so every answer is printed, never an error.
func dialogScript(title, text, yes, no string) string {
	return fmt.Sprintf("display dialog %s with title %s buttons {%s, %s} default button %s",
		appleScriptString(text), appleScriptString(title),
		appleScriptString(no), appleScriptString(yes), appleScriptString(no))
}

// errUnknownButton means osascript printed something other than a button of
// the dialog.
var errUnknownButton = errors.New("osascript: unexpected dialog answer")

// parseDialogAnswer reads osascript's output, "button returned:<label>",
// and reports whether the yes button was pressed.
func parseDialogAnswer(out, yes, no string) (bool, error) {
	label, ok := strings.CutPrefix(strings.TrimRight(out, "\r\n"), "button returned:")
	if ok {
		// Newer systems add ", gave up:false" and the like after the label.
		for _, want := range []string{yes, no} {
			if label == want || strings.HasPrefix(label, want+", ") {
				return want == yes, nil
			}
		}
	}
	return false, errUnknownButton
}
