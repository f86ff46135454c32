// Command demo is `make demo`: reprise's main job end to end on the
// embedded default. It starts the daemon, opens a bundled sample form in
// Chromium with the reprise extension, plays a person filling it for two
// customers (through the DevTools protocol), stops, reviews the two
// recordings, builds the skill, and replays it over a bundled 50-row CSV
// with the progress bar; then it prints where the report is.
//
// Every reprise step runs the real command a person would type; only the
// person's hands in the browser are played by chromedp.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/internal/paired"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// demonstrated are the two customers the person files by hand; they are
// not in the CSV, so the replay files each of its 50 rows once.
var demonstrated = []customer{
	{"Marie", "Curie", "marie.curie@example.org", "France"},
	{"Alan", "Kay", "alan.kay@example.org", "Canada"},
}

type customer struct{ first, last, email, country string }

func run(ctx context.Context) error {
	bin, err := filepath.Abs("bin/reprise")
	if err != nil {
		return err
	}
	home := os.Getenv(daemon.HomeEnv)
	if home == "" {
		home, _ = filepath.Abs(".demo")
	}
	// A fresh data dir each time: the demo shows a first run.
	if err := os.RemoveAll(home); err != nil {
		return err
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	os.Setenv(daemon.HomeEnv, home)
	r := &runner{bin: bin}

	d := exec.Command(bin, "daemon", "--consent-prompt", "cli")
	d.Stderr = os.Stderr
	if err := d.Start(); err != nil {
		return fmt.Errorf("start the daemon: %w", err)
	}
	defer func() { _ = d.Process.Signal(os.Interrupt); _ = d.Wait() }()
	if err := waitReady(home); err != nil {
		return err
	}
	r.show("status")

	site := newSite()
	defer site.Close()
	fmt.Printf("\nthe sample form: %s/customers/new\n", site.URL)

	br, err := paired.Launch(ctx, home, filepath.Join(home, "demo-browser"), false)
	if err != nil {
		return err
	}
	defer br.Close()
	bctx := br.Ctx

	var recs []string
	for _, c := range demonstrated {
		out, err := r.recordStart()
		if err != nil {
			return err
		}
		// record start returns once the extension has joined the recording.
		id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
		fmt.Printf("   (the person fills the form for %s %s)\n", c.first, c.last)
		if err := fill(bctx, site.URL, c); err != nil {
			return fmt.Errorf("play the person: %w", err)
		}
		// record stop takes the submit the extension still holds (it waits
		// for the page to settle to record what success looked like).
		if _, err := r.run(nil, "record", "stop"); err != nil {
			return err
		}
		recs = append(recs, id)
	}
	for _, id := range recs {
		if _, err := r.run(nil, "recordings", "review", id); err != nil {
			return err
		}
	}
	if _, err := r.run(nil, append([]string{"skill", "build"}, append(recs, "--name", "New customer", "--rows", "demo/customers.csv")...)...); err != nil {
		return err
	}
	r.show("skill", "show", "new-customer")

	report := filepath.Join(home, "report.csv")
	// The first run of a skill that submits fills rows 1-2 and asks the
	// person to check them; the demo's person says yes.
	fmt.Println("\n   (the person checks rows 1-2 and answers y)")
	if _, err := r.run(strings.NewReader("y\n"), "replay", "new-customer", "--rows", "demo/customers.csv", "--report", report); err != nil {
		return err
	}
	fmt.Printf("\nthe sample site holds %d customers (2 filed by hand, %d by the replay)\n", site.count(), site.count()-2)
	return nil
}

// fill is the person filling the form and saving it.
func fill(bctx context.Context, base string, c customer) error {
	return chromedp.Do(bctx,
		chromedp.Navigate(base+"/customers/new"),
		chromedp.WaitVisible("#first_name"),
		chromedp.Click("#first_name"), chromedp.SendKeys("#first_name", c.first),
		chromedp.Click("#last_name"), chromedp.SendKeys("#last_name", c.last),
		chromedp.Click("#email"), chromedp.SendKeys("#email", c.email),
		// A closed select takes the keyboard: focus it and type the name.
		chromedp.Focus(chromedp.CSS("#country")), chromedp.KeyEvent(c.country),
		chromedp.Click(`button[type=submit]`),
		chromedp.WaitVisible(`#saved`),
	)
}

func waitReady(home string) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := client.QueryStatus(home); err == nil {
			return nil
		} else if time.Now().After(deadline) {
			return fmt.Errorf("the daemon did not answer in 20 s: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
