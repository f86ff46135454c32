package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"html"
	"io"
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

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
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

var askLine = regexp.MustCompile(`row (\d+), step \d+ asks: the code sent to (\S+)\n  answer with: reprise runs answer (run_\S+)   and type the token (\S+)`)

// TestReplayAsksForACode: each row waits, browser open, for the code the
// site sent; `reprise runs answer` from another process answers it, and
// the code reaches neither the output nor the log.
func TestReplayAsksForACode(t *testing.T) {
	t.Parallel()
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
	if out, err := answer(replay.NewAskToken()+"\nx\n", "run_20261202T000000_0123456789abcdef"); err == nil || !strings.Contains(out, "no question is waiting in run") {
		t.Errorf("an answer nobody waits for: %v\n%s", err, out)
	}
	if out, err := answer("x\nx\n", "not-a-run"); err == nil || !strings.Contains(out, "is not a run id") {
		t.Errorf("a bad run id: %v\n%s", err, out)
	}
	var sent, tokens []string
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
			tokens = append(tokens, m[4])
			if out, err := answer(m[4]+"\n"+code+"\n", m[3], "--row", "9"); err == nil || !strings.Contains(out, "row 9 is not asking; row "+m[1]+" is") {
				t.Errorf("an answer for another row: %v\n%s", err, out)
			}
			if out, err := answer(m[4]+"\n"+code+"\n", m[3]); err != nil || !strings.Contains(out, "answered row "+m[1]) {
				t.Errorf("answer: %v\n%s", err, out)
			}
		}
		err = cmd.Wait()
		cancel()
		if err != nil {
			t.Fatalf("replay %s: %v\n%s\n%s", mode, err, out.String(), seen.String())
		}
		for _, code := range append(sent, tokens...) {
			if strings.Contains(out.String(), code) {
				t.Errorf("the output holds a code or a token: %s", out.String())
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

// askRig is a real daemon, a run asking through its own CLI connection
// (the asker, as `reprise replay` runs it), and a hostile program holding
// the same CLI credentials.
type askRig struct {
	home    string
	asker   *nats.Conn
	hostile *nats.Conn
}

// asked is one question as the person sees it on the asking terminal.
type asked struct {
	run, token string
	out        *strings.Builder // the asking terminal, once the question ended
}

// answer runs `reprise runs answer run` as the person would, in its own
// process, typing stdin; neither the answer nor the token may reach its
// output.
func (r *askRig) answer(t *testing.T, secrets []string, stdin, run string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"runs", "answer", run}, args...)...)
	cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
	cmd.Stdin = strings.NewReader(stdin)
	b, err := cmd.CombinedOutput()
	for _, s := range secrets {
		if strings.Contains(string(b), s) {
			t.Errorf("`reprise runs answer` printed what was typed: %s", b)
		}
	}
	return string(b), err
}

// request sends data on subject and returns the first reply, as any CLI
// connection can (replies under the run's subject: a CLI may not answer
// into another connection's inbox).
func request(t *testing.T, nc *nats.Conn, run, subject string, data []byte) *nats.Msg {
	t.Helper()
	inbox := events.AskSubject(run) + ".reply." + nats.NewInbox()[len(nats.InboxPrefix):]
	sub, err := nc.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := nc.PublishRequest(subject, inbox, data); err != nil {
		t.Fatal(err)
	}
	m, err := sub.NextMsg(10 * time.Second)
	if err != nil {
		t.Fatalf("request on %s: %v", subject, err)
	}
	return m
}

func refusal(t *testing.T, m *nats.Msg) string {
	t.Helper()
	var reply replay.AnswerReply
	if replay.IsSealed(m.Data) || json.Unmarshal(m.Data, &reply) != nil || reply.Error == "" {
		t.Fatalf("reply %q; want a plain refusal", m.Data)
	}
	return reply.Error
}

// TestAnswersReachOnlyTheAsker is the security section's table for `ask`:
// a program holding the CLI's credentials reads every ask subject and
// publishes on them, and still never reads an answer nor has its own
// taken, and a person's answer is taken only with the question's token.
func TestAnswersReachOnlyTheAsker(t *testing.T) {
	t.Parallel()
	r := &askRig{home: t.TempDir()}
	startDaemonProcess(t, r.home)
	for _, nc := range []**nats.Conn{&r.asker, &r.hostile} {
		c, err := client.Dial(r.home)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		*nc = c.Conn()
	}
	tests := []struct {
		name string
		// play is what happens while the question waits: the hostile
		// program's attempts and the person's, until the person's
		// answer is taken.
		play    func(t *testing.T, q asked, answer string)
		refused bool // the asking terminal reports refused answers
	}{
		{"an eavesdropper reads only ciphertext", func(t *testing.T, q asked, answer string) {
			if out, err := r.answer(t, []string{answer, q.token}, q.token+"\n"+answer+"\n", q.run); err != nil || !strings.Contains(out, "answered row 1, step 4 of run "+q.run) {
				t.Errorf("answer: %v\n%s", err, out)
			}
		}, false},
		{"an answer without the token, sent first, is not taken", func(t *testing.T, q asked, answer string) {
			guess, err := replay.DeriveAskKey(q.run, replay.NewAskToken())
			if err != nil {
				t.Fatal(err)
			}
			forged, _ := guess.SealAnswer(replay.Answer{Answer: "HOSTILE-1"})
			if why := refusal(t, request(t, r.hostile, q.run, guess.Subject(), forged)); why != replay.NotAcceptedReply {
				t.Errorf("a forged answer: %q; want %q", why, replay.NotAcceptedReply)
			}
			if why := refusal(t, request(t, r.hostile, q.run, events.AskQuestionSubject(q.run, "00ff"), []byte("\x01HOSTILE-2"))); why != replay.NotAcceptedReply {
				t.Errorf("junk on a question subject: %q; want %q", why, replay.NotAcceptedReply)
			}
			if out, err := r.answer(t, []string{answer, q.token}, q.token+"\n"+answer+"\n", q.run); err != nil || !strings.Contains(out, "answered row 1") {
				t.Errorf("the person's answer after the forged ones: %v\n%s", err, out)
			}
		}, true},
		{"an answer from a reprise that predates sealing is refused, saying to update", func(t *testing.T, q asked, answer string) {
			old, _ := json.Marshal(replay.Answer{Answer: "HOSTILE-3"})
			if why := refusal(t, request(t, r.hostile, q.run, events.AskSubject(q.run), old)); !strings.Contains(why, "update reprise") {
				t.Errorf("a plain answer: %q; want it refused, saying to update", why)
			}
			if out, err := r.answer(t, []string{answer, q.token}, q.token+"\n"+answer+"\n", q.run); err != nil {
				t.Errorf("answer: %v\n%s", err, out)
			}
		}, true},
		{"a wrong token is refused", func(t *testing.T, q asked, answer string) {
			wrong := replay.NewAskToken()
			if out, err := r.answer(t, []string{answer, wrong}, wrong+"\n"+answer+"\n", q.run); err == nil || !strings.Contains(out, "did not take the answer") {
				t.Errorf("a wrong token: %v\n%s", err, out)
			}
			if out, err := r.answer(t, nil, "7K2M-QX9D\n"+answer+"\n", q.run); err == nil || !strings.Contains(out, "a token is 12 letters and digits") {
				t.Errorf("a token cut short: %v\n%s", err, out)
			}
			lower := strings.ToLower(strings.ReplaceAll(q.token, "-", " "))
			if out, err := r.answer(t, []string{answer, q.token, lower}, lower+"\n"+answer+"\n", q.run); err != nil {
				t.Errorf("the right token, typed in lower case: %v\n%s", err, out)
			}
		}, true},
		{"a forged acceptance is not believed", func(t *testing.T, q asked, answer string) {
			yes, _ := json.Marshal(replay.AnswerReply{Row: 1, Step: 4})
			sub, err := r.hostile.Subscribe(events.AskQuestionSubject(q.run, "*"), func(m *nats.Msg) {
				_ = m.Respond(yes)
				_ = m.Respond(append([]byte{1}, bytes.Repeat([]byte{7}, 60)...))
			})
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Unsubscribe()
			if err := r.hostile.Flush(); err != nil {
				t.Fatal(err)
			}
			wrong := replay.NewAskToken()
			if out, err := r.answer(t, []string{answer, wrong}, wrong+"\n"+answer+"\n", q.run); err == nil || !strings.Contains(out, "did not take the answer") {
				t.Errorf("a wrong token, with a forged acceptance: %v\n%s", err, out)
			}
			if out, err := r.answer(t, []string{answer, q.token}, q.token+"\n"+answer+"\n", q.run); err != nil || !strings.Contains(out, "answered row 1, step 4") {
				t.Errorf("the right token, with forged replies: %v\n%s", err, out)
			}
		}, true},
		{"malformed sealed answers on the question's own subject are refused", func(t *testing.T, q asked, answer string) {
			// The test holds the token, as a program that sniffed the
			// subject cannot: it can still only send what does not open.
			key, err := replay.DeriveAskKey(q.run, q.token)
			if err != nil {
				t.Fatal(err)
			}
			otherRun, err := replay.DeriveAskKey(replay.NewRunID(), q.token)
			if err != nil {
				t.Fatal(err)
			}
			good, _ := key.SealAnswer(replay.Answer{Answer: "HOSTILE-4"})
			flipped := bytes.Clone(good)
			flipped[len(flipped)-3] ^= 0x20
			moved, _ := otherRun.SealAnswer(replay.Answer{Answer: "HOSTILE-5"})
			for _, b := range [][]byte{nil, {1}, good[:len(good)-1], flipped, moved, bytes.Repeat([]byte{1}, 64<<10), []byte(`{"answer":"HOSTILE-6"}`)} {
				if why := refusal(t, request(t, r.hostile, q.run, key.Subject(), b)); why != replay.NotAcceptedReply {
					t.Errorf("%d malformed bytes: %q; want %q", len(b), why, replay.NotAcceptedReply)
				}
			}
			if out, err := r.answer(t, []string{answer, q.token}, q.token+"\n"+answer+"\n", q.run); err != nil {
				t.Errorf("answer: %v\n%s", err, out)
			}
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := replay.NewRunID()
			heard, err := r.hostile.SubscribeSync(events.AskAll)
			if err != nil {
				t.Fatal(err)
			}
			defer heard.Unsubscribe()
			if err := r.hostile.Flush(); err != nil {
				t.Fatal(err)
			}
			pr, pw := io.Pipe()
			a := &replay.Asker{Conn: r.asker, Out: pw}
			type result struct {
				answer string
				err    error
			}
			done := make(chan result, 1)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			go func() {
				ans, err := a.Ask(ctx, replay.Question{RunID: run, Row: 1, Step: 4, Prompt: "the code", Wait: 2 * time.Minute})
				pw.Close()
				done <- result{ans, err}
			}()
			q := asked{run: run, out: new(strings.Builder)}
			sc := bufio.NewScanner(pr)
			tokenLine := regexp.MustCompile(`answer with: reprise runs answer ` + run + `   and type the token (\S+)`)
			for q.token == "" && sc.Scan() {
				if m := tokenLine.FindStringSubmatch(sc.Text()); m != nil {
					q.token = m[1]
				}
			}
			if q.token == "" {
				t.Fatalf("the asker printed no token: %v", sc.Err())
			}
			terminal := make(chan string)
			go func() {
				var b strings.Builder
				for sc.Scan() {
					b.WriteString(sc.Text() + "\n")
				}
				terminal <- b.String()
			}()
			answer := "C0DE-" + rand.Text()[:8]
			tt.play(t, q, answer)
			res := <-done
			out := <-terminal
			if res.err != nil || res.answer != answer {
				t.Fatalf("the run took %q, %v; want the person's answer", res.answer, res.err)
			}
			if strings.Contains(out, answer) {
				t.Errorf("the asking terminal shows the answer: %s", out)
			}
			if got := strings.Contains(out, "answers refused"); got != tt.refused {
				t.Errorf("the asking terminal reports refused answers: %v; want %v\n%s", got, tt.refused, out)
			}
			// The run replied to the person's answer before ask returned;
			// the hostile program heard it all by the next round trip.
			if err := r.hostile.Flush(); err != nil {
				t.Fatal(err)
			}
			key, err := replay.DeriveAskKey(run, q.token)
			if err != nil {
				t.Fatal(err)
			}
			norm := strings.ReplaceAll(q.token, "-", "")
			sawAnswer := false
			for {
				m, err := heard.NextMsg(0)
				if err != nil {
					break
				}
				msg := m.Subject + "\x00" + string(m.Data) + "\x00" + fmt.Sprint(m.Header)
				for _, s := range []string{answer, q.token, norm} {
					if strings.Contains(msg, s) {
						t.Errorf("a program on %s read an answer or a token on %s", events.AskAll, m.Subject)
					}
				}
				if a, err := key.OpenAnswer(m.Data); err == nil && a.Answer == answer {
					sawAnswer = true
				}
			}
			if !sawAnswer {
				t.Errorf("the hostile program never heard the person's sealed answer; the test proves nothing")
			}
		})
	}
}
