package consent

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/reprise-dev/reprise/api"
)

// Asking answers, from the terminal that asked for consent (as `reprise
// record start` does), the prompts the daemon shows for the request: each
// is shown on Out and answered with a line of In, while the daemon's other
// prompters (a dialog, `reprise consent`) may answer it first.
type Asking struct {
	out     io.Writer
	answers <-chan string
}

// NewAsking reads in line by line in the background, so a question can be
// abandoned without leaving a reader behind, and asks on out.
func NewAsking(in io.Reader, out io.Writer) *Asking {
	ch := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			ch <- sc.Text()
		}
		close(ch)
	}()
	return &Asking{out: out, answers: ch}
}

// Answer shows p and asks whether to approve it, then whether to remember
// the answer; answered is false when decided closed first (p was answered
// elsewhere). It is a client.ConsentAnswer.
func (a *Asking) Answer(p api.ConsentPrompt, decided <-chan struct{}) (approve, remember, answered bool) {
	fmt.Fprintf(a.out, "%s\n\n%s\n\n", p.Title, p.Body)
	if approve, answered = a.ask(fmt.Sprintf("%s? [y/N] ", p.Approve), decided); !answered {
		return false, false, false
	}
	remember, answered = a.ask(RememberQuestion+" [y/N] ", decided)
	return approve, remember, answered
}

// ask asks question and reports whether the answer is yes; open is false
// when decided closed first (the question was answered elsewhere), and no
// answer is taken then. Input that ends answers no.
func (a *Asking) ask(question string, decided <-chan struct{}) (yes, open bool) {
	fmt.Fprint(a.out, question)
	select {
	case ans, ok := <-a.answers:
		if !ok {
			fmt.Fprintln(a.out)
			return false, true
		}
		ans = strings.ToLower(strings.TrimSpace(ans))
		return ans == "y" || ans == "yes", true
	case <-decided:
		fmt.Fprintln(a.out, "(answered elsewhere)")
		return false, false
	}
}
