package consent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeDialog writes a shell script that stands in for a dialog binary: it
// records its arguments and exits as told by the file "answers", one exit
// status per dialog it shows.
func fakeDialog(t *testing.T, answers ...string) (bin, argsLog string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("SKIPPED: the fake dialog is a shell script; the exec path is tested on Linux and macOS")
	}
	dir := t.TempDir()
	argsLog = filepath.Join(dir, "args")
	if err := os.WriteFile(filepath.Join(dir, "answers"), []byte(strings.Join(answers, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := `#!/bin/sh
dir=$(dirname "$0")
for a in "$@"; do printf '%s\n' "$a"; done >> "$dir/args"
echo --- >> "$dir/args"
answer=$(head -n 1 "$dir/answers"); sed -i.bak 1d "$dir/answers"
case "$answer" in
  hang) exec sleep 60 ;;
  nodisplay) echo "cannot open display: :99" >&2; exit 1 ;;
  *) exit "$answer" ;;
esac
`
	bin = filepath.Join(dir, "kdialog")
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return bin, argsLog
}

func TestKDialogExec(t *testing.T) {
	tests := []struct {
		name    string
		answers []string
		want    Decision
		wantErr bool
	}{
		{"yes, remember", []string{"0", "0"}, Decision{Approved: true, Remember: true}, false},
		{"yes, once", []string{"0", "1"}, Decision{Approved: true}, false},
		{"no, remember", []string{"1", "0"}, Decision{Remember: true}, false},
		{"yes, remember question fails", []string{"0", "2"}, Decision{Approved: true}, false},
		{"dialog failed", []string{"2"}, Decision{}, true},
		{"no display", []string{"nodisplay"}, Decision{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin, _ := fakeDialog(t, tt.answers...)
			k := &KDialog{Path: bin, Env: []string{"DISPLAY=:99"}}
			if ok, why := k.Available(); !ok {
				t.Fatalf("KDialog.Available() = false, %q", why)
			}
			d, err := k.Ask(context.Background(), NewPrompt(extractReq, ""))
			if d != tt.want || (err != nil) != tt.wantErr {
				t.Fatalf("KDialog.Ask with exits %v = %+v, %v; want %+v, error %v", tt.answers, d, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestKDialogArgs(t *testing.T) {
	bin, argsLog := fakeDialog(t, "0", "1")
	p := NewPrompt(cloudReq, "<b>Acme</b>")
	if _, err := (&KDialog{Path: bin, Env: []string{"DISPLAY=:99"}}).Ask(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(argsLog)
	if err != nil {
		t.Fatal(err)
	}
	calls := strings.Split(strings.TrimSuffix(string(raw), "---\n"), "---\n")
	if len(calls) != 2 {
		t.Fatalf("kdialog ran %d times; want 2 (the prompt, then remember)", len(calls))
	}
	first := strings.Split(strings.TrimSpace(calls[0]), "\n")
	for _, want := range []string{"--yesno", "--yes-label", "Send and build", "--no-label", "Keep it on my machine", "Build this skill using the cloud?"} {
		if !slices.Contains(first, want) {
			t.Errorf("kdialog prompt arguments lack %q: %q", want, first)
		}
	}
	if strings.Contains(calls[0], "<b>") {
		t.Errorf("kdialog text keeps a tag Qt would render: %q", calls[0])
	}
	if !strings.Contains(calls[1], RememberQuestion) || !strings.Contains(calls[1], RememberNo) {
		t.Errorf("second kdialog is not the remember question: %q", calls[1])
	}
}

func TestDialogKilledWhenContextEnds(t *testing.T) {
	bin, _ := fakeDialog(t, "hang")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := (&KDialog{Path: bin, Env: []string{"DISPLAY=:99"}}).Ask(ctx, NewPrompt(extractReq, ""))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Ask past its context = %v; want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Ask took %s after its context ended; the dialog was not killed", d)
	}
}
