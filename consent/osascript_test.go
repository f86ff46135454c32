package consent

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

func TestAppleScriptString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{`say "hi"`, `"say \"hi\""`},
		{`C:\path`, `"C:\\path"`},
		{`\"`, `"\\\""`},
		{"two\nlines\r\tend", `"two\nlines\r\tend"`},
		{"bell\x07 and del\x7f", `"bell and del"`},
		{"what's visible • ü", `"what's visible • ü"`},
		{`" & (do shell script "rm -rf ~") & "`, `"\" & (do shell script \"rm -rf ~\") & \""`},
	}
	for _, tt := range tests {
		if got := appleScriptString(tt.in); got != tt.want {
			t.Errorf("appleScriptString(%q) = %s; want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzAppleScriptString checks that the literal always ends where it should:
// every quote inside is escaped, so nothing after it runs as script.
func FuzzAppleScriptString(f *testing.F) {
	for _, s := range []string{"", `"`, `\`, `\"`, "a\nb", `" & quit & "`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lit := appleScriptString(s)
		if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
			t.Fatalf("appleScriptString(%q) = %s; not one literal", s, lit)
		}
		body := lit[1 : len(lit)-1]
		for i := 0; i < len(body); i++ {
			switch body[i] {
			case '\\':
				i++ // the escaped byte
				if i >= len(body) {
					t.Fatalf("appleScriptString(%q) = %s ends in a lone backslash", s, lit)
				}
			case '"', '\n', '\r':
				t.Fatalf("appleScriptString(%q) = %s has a raw %q", s, lit, body[i])
			}
		}
	})
}

func TestDialogScript(t *testing.T) {
	p := NewPrompt(cloudReq, `Acme "Cloud"`)
	got := dialogScript(p.Title, p.Body, p.Approve, p.Deny)
	for _, want := range []string{
		`display dialog "`,
		`with title "Build this skill using the cloud?"`,
		`buttons {"Keep it on my machine", "Send and build"}`,
		`default button "Keep it on my machine"`,
		`are sent to Acme \"Cloud\", a capable model`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("dialogScript does not contain %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\n") || strings.Contains(got, "with icon") {
		t.Errorf("dialogScript has a raw newline or an icon:\n%s", got)
	}
}

func TestParseDialogAnswer(t *testing.T) {
	tests := []struct {
		out     string
		yes     bool
		wantErr bool
	}{
		{"button returned:Send and build\n", true, false},
		{"button returned:Keep it on my machine\n", false, false},
		{"button returned:Send and build, gave up:false\n", true, false},
		{"button returned:Send and builder\n", false, true},
		{"button returned:\n", false, true},
		{"", false, true},
		{"execution error: User canceled. (-128)", false, true},
	}
	for _, tt := range tests {
		yes, err := parseDialogAnswer(tt.out, "Send and build", "Keep it on my machine")
		if yes != tt.yes || (err != nil) != tt.wantErr || (err != nil && !errors.Is(err, errUnknownButton)) {
			t.Errorf("parseDialogAnswer(%q) = %v, %v; want %v, error %v", tt.out, yes, err, tt.yes, tt.wantErr)
		}
	}
}

func TestMessageBoxText(t *testing.T) {
	p := NewPrompt(cloudReq, "")
	got := messageBoxText(p.Body, p.Approve, p.Deny)
	if !strings.HasPrefix(got, p.Body) || !strings.HasSuffix(got, "\n\nYes: Send and build\nNo: Keep it on my machine") {
		t.Fatalf("messageBoxText = %q; want the body, then what Yes and No mean", got)
	}
}

func TestOSDialogsUnavailableElsewhere(t *testing.T) {
	for _, tt := range []struct {
		p    Prompter
		home string
	}{{&OSAScript{}, "darwin"}, {&MessageBox{}, "windows"}} {
		if runtime.GOOS == tt.home {
			continue
		}
		if ok, why := tt.p.Available(); ok || !strings.Contains(why, runtime.GOOS) {
			t.Errorf("%s.Available() on %s = %v, %q; want false, naming the OS", tt.p.Name(), runtime.GOOS, ok, why)
		}
		if _, err := tt.p.Ask(t.Context(), NewPrompt(extractReq, "")); err == nil {
			t.Errorf("%s.Ask on %s = nil error; want not supported", tt.p.Name(), runtime.GOOS)
		}
	}
}
