package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/consent"
	"github.com/reprise-dev/reprise/ops"
)

// requestConsent sends REQUEST_RECORDING_CONSENT and, while the daemon waits
// for the person, offers the person at this terminal the same question: the
// prompt that appears in the daemon's queue for this request is answered
// here (or by --yes). Whichever of the daemon's prompters answers first
// wins; a dialog answered on screen ends the wait just the same.
func requestConsent(ctx context.Context, c *client.Client, req ops.ConsentRequest, yes bool, in io.Reader, out io.Writer) (ops.ConsentResult, error) {
	cl := c.Consent()
	before, err := cl.List(ctx)
	if err != nil {
		return ops.ConsentResult{}, err
	}
	seen := map[string]bool{}
	for _, p := range before {
		seen[p.ID] = true
	}
	type result struct {
		r   ops.ConsentResult
		err error
	}
	done := make(chan result, 1)
	// decided closes once the daemon has the answer, from whichever
	// prompter: a question still open here is then abandoned.
	decided := make(chan struct{})
	go func() {
		r, err := c.RequestConsent(ctx, req)
		done <- result{r, err}
		close(decided)
	}()
	answers := lines(in)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case res := <-done:
			return res.r, res.err
		case <-ctx.Done():
			return ops.ConsentResult{}, ctx.Err()
		case <-tick.C:
		}
		prompts, err := cl.List(ctx)
		if err != nil {
			continue
		}
		for _, p := range prompts {
			if seen[p.ID] || !sameRequest(p.Request, req) {
				continue
			}
			seen[p.ID] = true
			approve, remember := yes, false
			if !yes {
				fmt.Fprintf(out, "%s\n\n%s\n\n", p.Title, p.Body)
				var open bool
				if approve, open = ask(out, answers, fmt.Sprintf("%s? [y/N] ", p.Approve), decided); !open {
					break // answered elsewhere (a dialog, `reprise consent`)
				}
				if remember, open = ask(out, answers, consent.RememberQuestion+" [y/N] ", decided); !open {
					break
				}
			}
			if approve {
				err = cl.Approve(ctx, p.ID, remember)
			} else {
				err = cl.Deny(ctx, p.ID)
			}
			if err != nil {
				// Another prompter answered first; the request's reply says how.
				continue
			}
		}
	}
}

func sameRequest(a, b ops.ConsentRequest) bool {
	x, y := slices.Clone(a.Channels), slices.Clone(b.Channels)
	slices.Sort(x)
	slices.Sort(y)
	return a.Mode == b.Mode && a.InterpretationRoute == b.InterpretationRoute && slices.Equal(slices.Compact(x), slices.Compact(y))
}

// lines reads in line by line in the background, so a question can be
// abandoned without leaving a reader behind.
func lines(in io.Reader) <-chan string {
	ch := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			ch <- sc.Text()
		}
		close(ch)
	}()
	return ch
}

// ask asks question and reports whether the answer is yes; open is false
// when decided closed first (the question was answered elsewhere), and no
// answer is taken then.
func ask(out io.Writer, answers <-chan string, question string, decided <-chan struct{}) (yes, open bool) {
	fmt.Fprint(out, question)
	select {
	case a, ok := <-answers:
		if !ok {
			fmt.Fprintln(out)
			return false, true
		}
		a = strings.ToLower(strings.TrimSpace(a))
		return a == "y" || a == "yes", true
	case <-decided:
		fmt.Fprintln(out, "(answered elsewhere)")
		return false, false
	}
}
