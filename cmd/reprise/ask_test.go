package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/daemon"
)

// otpSite sends a one-time code for an email and saves a note only with
// the code it sent.
type otpSite struct {
	*httptest.Server
	mu    sync.Mutex
	codes map[string]string // email -> the code sent
	saved map[string]string // email -> note
}

func newOTPSite(t *testing.T) *otpSite {
	s := &otpSite{codes: map[string]string{}, saved: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /start", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><form method="post" action="/send"><label for="email">Email</label><input id="email" name="email" type="email"><button>Send code</button></form>`)
	})
	mux.HandleFunc("POST /send", func(w http.ResponseWriter, r *http.Request) {
		email := r.FormValue("email")
		s.mu.Lock()
		s.codes[email] = strings.ToUpper(rand.Text()[:6])
		s.mu.Unlock()
		fmt.Fprintf(w, `<!doctype html><form method="post" action="/save"><input type="hidden" name="email" value="%s">
<label for="code">Code</label><input id="code" name="code"><label for="note">Note</label><input id="note" name="note"><button>Save</button></form>`, html.EscapeString(email))
	})
	mux.HandleFunc("POST /save", func(w http.ResponseWriter, r *http.Request) {
		email := r.FormValue("email")
		s.mu.Lock()
		ok := s.codes[email] != "" && s.codes[email] == r.FormValue("code")
		if ok {
			s.saved[email] = r.FormValue("note")
		}
		s.mu.Unlock()
		if !ok {
			http.Error(w, "wrong code", http.StatusForbidden)
			return
		}
		http.Redirect(w, r, "/saved", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /saved", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `<!doctype html><p>Saved</p>`) })
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func (s *otpSite) code(email string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.codes[email]
}

var askLine = regexp.MustCompile(`row (\d+), step \d+ asks: the code sent to (\S+)\n  answer with: reprise runs answer (run_\S+)`)

// TestReplayAsksForACode: each row waits, browser open, for the code the
// site sent; `reprise runs answer` from another process answers it, and
// the code reaches neither the output nor the log.
func TestReplayAsksForACode(t *testing.T) {
	r := newReplayRig(t)
	site := newOTPSite(t)
	tmpl, err := os.ReadFile(filepath.Join("testdata", "otp-skill.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r.skill = r.write("otp-skill.yaml", strings.ReplaceAll(string(tmpl), "{{base}}", site.URL))
	csv := r.write("people.csv", "Email,Note\nann@example.org,first note\nbo@example.org,second note\n")
	answer := func(stdin string, args ...string) (string, error) {
		cmd := exec.Command(binary, append([]string{"runs", "answer"}, args...)...)
		cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
		cmd.Stdin = strings.NewReader(stdin)
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	if out, err := answer("x\n", "run_20261202T000000_0123456789abcdef"); err == nil || !strings.Contains(out, "no question is waiting in run") {
		t.Errorf("an answer nobody waits for: %v\n%s", err, out)
	}
	if out, err := answer("x\n", "not-a-run"); err == nil || !strings.Contains(out, "is not a run id") {
		t.Errorf("a bad run id: %v\n%s", err, out)
	}
	var sent []string
	for _, mode := range []string{"--dry-run", "--yes"} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, binary, "replay", r.skill, "--rows", csv, mode)
		cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var seen strings.Builder
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			seen.WriteString(sc.Text() + "\n")
			m := askLine.FindStringSubmatch(seen.String())
			if m == nil {
				continue
			}
			seen.Reset()
			code := site.code(m[2])
			sent = append(sent, code)
			if out, err := answer(code+"\n", m[3], "--row", "9"); err == nil || !strings.Contains(out, "row 9 is not asking; row "+m[1]+" is") {
				t.Errorf("an answer for another row: %v\n%s", err, out)
			}
			if out, err := answer(code+"\n", m[3]); err != nil || !strings.Contains(out, "answered row "+m[1]) {
				t.Errorf("answer: %v\n%s", err, out)
			}
		}
		err = cmd.Wait()
		cancel()
		if err != nil {
			t.Fatalf("replay %s: %v\n%s\n%s", mode, err, out.String(), seen.String())
		}
		for _, code := range sent {
			if strings.Contains(out.String(), code) {
				t.Errorf("the output holds a code: %s", out.String())
			}
		}
	}
	if len(sent) != 4 {
		t.Errorf("%d questions answered; want 2 rows x (dry run + run)", len(sent))
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	if site.saved["ann@example.org"] != "first note" || site.saved["bo@example.org"] != "second note" || len(site.saved) != 2 {
		t.Errorf("the site saved %v", site.saved)
	}
}
