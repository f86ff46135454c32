package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
)

// orderForm is replay/desktop/testdata/choices_gtk.py on a desktop: a GTK
// form with a Country combo box, a Plan list box, a Newsletter check box
// and two entries, whose Save appends each record to a JSON-lines file.
type orderForm struct {
	d       *xvfb.Desktop
	env     []string // the desktop's DISPLAY and session bus
	records string
	ax      *atspi.Enricher
	appLog  *syncbuf.Buffer
}

// order is one record as the form saves it, and one CSV row.
type order struct {
	Name       string `json:"name"`
	Country    string `json:"country"`
	Plan       string `json:"plan"`
	Newsletter bool   `json:"newsletter"`
	Email      string `json:"email"`
}

func startOrderForm(t *testing.T) *orderForm {
	t.Helper()
	d, env := privateDesktop(t)
	f := &orderForm{d: d, env: env, records: filepath.Join(t.TempDir(), "orders.jsonl"), appLog: &syncbuf.Buffer{}}
	app := exec.Command("/usr/bin/python3", filepath.Join("..", "..", "replay", "desktop", "testdata", "choices_gtk.py"), f.records)
	app.Env = env
	app.Stderr = f.appLog
	out, err := app.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Start(); err != nil {
		t.Fatalf("start the GTK form (python3-gi: run scripts/deps): %v", err)
	}
	t.Cleanup(func() { _ = app.Process.Kill(); _ = app.Wait() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "ready" {
				ready <- true
			}
		}
		close(ready)
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("the form exited before it was ready: %s", f.appLog.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the form was not ready in 20 s: %s", f.appLog.String())
	}
	ax, err := atspi.New(atspi.Options{Display: d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ax.Close() })
	f.ax = ax
	return f
}

// at waits for one showing element of role and label in window ("" for
// the active one: an open popup) and returns its centre.
func (f *orderForm) at(t *testing.T, window, role, label string) image.Point {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		els, err := f.ax.Find(ctx, window, role, label)
		if err == nil && len(els) == 1 {
			return els[0].Bounds.Min.Add(els[0].Bounds.Max).Div(2)
		}
		if ctx.Err() != nil {
			t.Fatalf("no %s %q in %q: %d found, %v", role, label, window, len(els), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (f *orderForm) click(t *testing.T, p image.Point) {
	t.Helper()
	if err := f.d.Click(context.Background(), p.X, p.Y, 1); err != nil {
		t.Fatal(err)
	}
}

// file is the person filing one order with the mouse and keyboard: the
// combo box's option is picked in its popup, the plan in the list, the
// box ticked when the order wants the newsletter.
func (f *orderForm) file(t *testing.T, o order) {
	t.Helper()
	f.click(t, f.at(t, "Order", "textbox", "Name"))
	if _, err := f.d.Xdotool(context.Background(), "type", "--delay", "20", o.Name); err != nil {
		t.Fatal(err)
	}
	f.click(t, f.at(t, "Order", "combobox", "Country"))
	f.click(t, f.at(t, "", "menuitem", o.Country)) // in the popup, once it shows
	f.waitFor(t, func() bool { return f.chosen(t, "combobox", "Country") == o.Country })
	f.click(t, f.at(t, "Order", "label", o.Plan))
	f.waitFor(t, func() bool { return f.chosen(t, "listbox", "Plan") == o.Plan })
	if o.Newsletter {
		f.click(t, f.at(t, "Order", "checkbox", "Newsletter"))
	}
	f.click(t, f.at(t, "Order", "textbox", "Email"))
	if _, err := f.d.Xdotool(context.Background(), "type", "--delay", "20", o.Email); err != nil {
		t.Fatal(err)
	}
	f.click(t, f.at(t, "Order", "button", "Save"))
}

// chosen is the option the combo or list holds now.
func (f *orderForm) chosen(t *testing.T, role, label string) string {
	els, err := f.ax.Find(context.Background(), "Order", role, label)
	if err != nil || len(els) != 1 {
		return ""
	}
	ch, err := f.ax.ReadChoice(context.Background(), els[0])
	if err != nil {
		return ""
	}
	return ch.Selected
}

func (f *orderForm) waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the form never showed what the person did: %s", f.appLog.String())
		}
	}
}

// saved waits until the form saved at least n records and returns them.
func (f *orderForm) saved(t *testing.T, n int) []order {
	t.Helper()
	var got []order
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(f.records)
		got = got[:0]
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if line == "" {
				continue
			}
			var o order
			if err := json.Unmarshal([]byte(line), &o); err != nil {
				t.Fatalf("record %q: %v", line, err)
			}
			got = append(got, o)
		}
		if len(got) >= n || time.Now().After(deadline) {
			break
		}
	}
	if len(got) < n {
		t.Fatalf("the form saved %d records; want %d: %+v\napp said: %s", len(got), n, got, f.appLog.String())
	}
	return got
}

// recordedSteps waits until the daemon has written n steps of the
// recording running: the person's last click is held a moment in case it
// becomes a double click.
func recordedSteps(t *testing.T, home string, n int) {
	t.Helper()
	var last int
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		st, err := client.QueryStatus(home)
		if err == nil && st.Recording != nil {
			if last = int(st.Recording.Steps); last >= n {
				return
			}
		}
	}
	t.Logf("the recording has %d steps after 20 s; want %d (stopping anyway)", last, n)
}

func csvOf(rows []order) string {
	var b strings.Builder
	b.WriteString("Name,Country,Plan,Newsletter,Email\n")
	for _, o := range rows {
		yn := "no"
		if o.Newsletter {
			yn = "yes"
		}
		fmt.Fprintf(&b, "%s,%q,%s,%s,%s\n", o.Name, o.Country, o.Plan, yn, o.Email)
	}
	return b.String()
}

// TestDesktopChoicesRecordBuildReplay is issue 33 end to end on Linux X11:
// a person files two orders in a GTK form, picking the country in a combo
// box's popup and the plan in a list box, ticking the newsletter box in
// the first only; both are recorded through the daemon (X11 RECORD,
// AT-SPI). The skill built from them has the country and the plan as
// choices among the recorded options and the box as a yes/no parameter;
// it files ten more orders from a CSV, and every saved record is compared
// with its row. A row whose country is no option is refused before the
// run, and nothing is saved for it.
func TestDesktopChoicesRecordBuildReplay(t *testing.T) {
	f := startOrderForm(t)
	home := t.TempDir()
	onDesktop(t, home, f.env)
	startDaemonProcess(t, home, "--consent-prompt", "cli")

	demos := []order{
		{"Ada Lovelace", "Germany", "Standard", true, "ada@example.org"},
		{"Grace Hopper", "Spain", "Premium", false, "grace@example.org"},
	}
	var recs []string
	for i, o := range demos {
		f.at(t, "Order", "textbox", "Name") // the form is up
		out, stderr, err := run(t, home, "record", "start", "--yes", "--channels", "floor,desktop_ax")
		id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
		if err != nil || id == "" {
			t.Fatalf("record start: %v\n%s%s", err, out, stderr)
		}
		f.file(t, o)
		f.saved(t, i+1)
		steps := 5 // fill, select, select, fill, click Save
		if o.Newsletter {
			steps++
		}
		recordedSteps(t, home, steps)
		out, stderr, err = run(t, home, "record", "stop")
		if err != nil {
			t.Fatalf("record stop: %v\n%s%s", err, out, stderr)
		}
		if _, stderr, err := run(t, home, "recordings", "review", id); err != nil {
			t.Fatalf("review: %v\n%s", err, stderr)
		}
		recs = append(recs, id)
	}
	show, _, _ := run(t, home, "recordings", "show", recs[0])
	for _, want := range []string{"select", "Country", "Germany", "Plan", "Standard", "Newsletter"} {
		if !strings.Contains(show, want) {
			t.Fatalf("the first recording does not show %q:\n%s", want, show)
		}
	}
	if strings.Contains(show, "Password") {
		t.Fatalf("the recording names an element under the popup:\n%s", show)
	}

	dir := t.TempDir()
	sample := filepath.Join(dir, "sample.csv")
	if err := os.WriteFile(sample, []byte(csvOf(demos)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := run(t, home, "skill", "build", recs[0], recs[1], "--name", "desktop order", "--rows", sample)
	sk, _, _ := run(t, home, "skill", "show", "desktop-order")
	if err != nil || !strings.Contains(out, "saved skill desktop-order") {
		show2, _, _ := run(t, home, "recordings", "show", recs[1])
		t.Fatalf("skill build: %v\n%s%s\nrecording 1:\n%s\nrecording 2:\n%s", err, out, stderr, show, show2)
	}
	t.Logf("skill build said:\n%s", out)
	// What success looked like after Save in both demonstrations: the
	// status line showed the name saved, and the form emptied.
	for _, want := range []string{"action: select", "type: boolean", "Côte d'Ivoire", "Premium", "kind: text", "'%name%'", "kind: form_reset"} {
		if !strings.Contains(sk, want) {
			t.Errorf("the skill has no %q:\n%s", want, sk)
		}
	}

	countries := []string{"France", "Germany", "Italy", "Spain", "Côte d'Ivoire"}
	plans := []string{"Basic", "Standard", "Premium"}
	var rows []order
	for i := range 10 {
		rows = append(rows, order{
			Name: fmt.Sprintf("Customer %d", i+1), Country: countries[i%len(countries)], Plan: plans[i%len(plans)],
			Newsletter: i%2 == 0, Email: fmt.Sprintf("c%d@example.org", i+1),
		})
	}
	csv := csvOf(rows)
	// One row names the country in other case and without its accent: it
	// is mapped onto the option; another names no option at all.
	csv = strings.Replace(csv, `"Côte d'Ivoire"`, `"cote d'ivoire"`, 1)
	csv += `Nobody,"Atlantis",Basic,no,nobody@example.org` + "\n"
	csvPath := filepath.Join(dir, "orders.csv")
	if err := os.WriteFile(csvPath, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, binary, "replay", "desktop-order", "--rows", csvPath)
	cmd.Env = homeEnv(home)
	cmd.Stdin = strings.NewReader("y\n") // the first-run check of rows 1-2
	b, err := cmd.CombinedOutput()
	took := time.Since(start)
	t.Logf("replay (%s) said:\n%s", took.Round(time.Millisecond), b)
	if err != nil && !strings.Contains(string(b), "10 committed") {
		t.Errorf("replay: %v", err)
	}
	if !regexp.MustCompile(`(?s)row 11.*refused before the run`).Match(b) {
		t.Errorf("row 11 (country Atlantis) is not reported refused before the run:\n%s", b)
	}
	got := f.saved(t, 2+len(rows))
	if len(got) != 2+len(rows) {
		t.Fatalf("the form saved %d records after the demonstrations; want exactly %d:\n%+v", len(got)-2, len(rows), got[2:])
	}
	right := 0
	for i, want := range rows {
		if g := got[2+i]; g == want {
			right++
		} else {
			t.Errorf("record %d = %+v; want %+v", i+1, g, want)
		}
	}
	t.Logf("%d of %d records right; 1 row refused before the run; %s for the run", right, len(rows), took.Round(time.Millisecond))
	if right != len(rows) {
		t.Logf("skill:\n%s", sk)
	}
}
