package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/consent"
	"github.com/reprise-dev/reprise/ops"
)

// requestConsent asks the daemon for consent and offers the person at this
// terminal the same question (or answers it yes, with --yes); a dialog
// answered on screen ends the wait just the same.
func requestConsent(ctx context.Context, c *client.Client, req ops.ConsentRequest, yes bool, in io.Reader, out io.Writer) (ops.ConsentResult, error) {
	answers := lines(in)
	return c.RequestConsentAnswering(ctx, req, func(p api.ConsentPrompt, decided <-chan struct{}) (approve, remember, answered bool) {
		if yes {
			return true, false, true
		}
		fmt.Fprintf(out, "%s\n\n%s\n\n", p.Title, p.Body)
		if approve, answered = ask(out, answers, fmt.Sprintf("%s? [y/N] ", p.Approve), decided); !answered {
			return false, false, false // answered elsewhere (a dialog, `reprise consent`)
		}
		remember, answered = ask(out, answers, consent.RememberQuestion+" [y/N] ", decided)
		return approve, remember, answered
	})
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
