package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
)

// asker puts a run's questions to the person: each is shown on this
// terminal with a token of its own, never sent anywhere, and answered
// with `reprise runs answer RUN` (from here or any terminal that reaches
// the daemon), where the person types the token. The answer is sealed
// under a key only the token gives (replay.AskKey), so another program on
// the daemon's NATS reads ciphertext and cannot answer. One question at a
// time: rows filed in parallel wait their turn.
type asker struct {
	nc  *nats.Conn
	out io.Writer
	mu  sync.Mutex
}

// What a run replies to an answer it did not take, unsealed: it says no
// more than that, whoever sent it.
const (
	notAcceptedReply = "not accepted: type the token the asking run printed for this question (each question has its own)"
	unsealedReply    = "this run takes only sealed answers: update reprise, then answer with `reprise runs answer RUN` and type the token the run printed"
)

func (a *asker) ask(ctx context.Context, q replay.Question) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	token := replay.NewAskToken()
	key, err := replay.DeriveAskKey(q.RunID, token)
	if err != nil {
		return "", fmt.Errorf("wait for an answer: %w", err)
	}
	var refused atomic.Int64
	warned := false
	defer func() {
		if n := refused.Load(); n > 0 {
			fmt.Fprintf(a.out, "  row %d, step %d: %d answers refused (a wrong token, an older reprise, or another program)\n", q.Row, q.Step, n)
		}
	}()
	answer, err := replay.WaitAnswer(ctx, a.nc, q, replay.AnswerWait{Key: key, NotAccepted: notAcceptedReply, Unsealed: unsealedReply,
		Ready: func() {
			fmt.Fprintf(a.out, "\nrow %d, step %d asks: %s\n  answer with: reprise runs answer %s   and type the token %s   (the row waits %s)\n",
				q.Row, q.Step, q.Prompt, q.RunID, token, q.Wait.Round(time.Second))
		},
		Refused: func(onQuestion bool) {
			refused.Add(1)
			if onQuestion && !warned {
				warned = true
				fmt.Fprintf(a.out, "  row %d, step %d: an answer without this question's token was refused; still waiting\n", q.Row, q.Step)
			}
		},
	})
	if err == nil {
		fmt.Fprintf(a.out, "  row %d, step %d: answered\n", q.Row, q.Step)
	}
	return answer, err
}

func newRunsCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "runs", Short: "Work with replay runs that are going on"}
	var row int
	answer := &cobra.Command{
		Use:   "answer RUN",
		Short: "Answer the question a run's row is waiting on, with the token the run printed (typed without echo, or read from standard input)",
		Long: `A skill's ask step (a one-time code, a captcha, a password it never stores) pauses
its row with the browser open until someone answers. The asking run prints the
question and a token for it. Type the token, then the answer: without echo on a
terminal, or from standard input, the token on the first line and the answer on
the second. The answer is sealed with a key only the token gives and goes to the
run directly, over the daemon's connection: it is never stored, and another
program reading the daemon's messages sees ciphertext only. The token is never an
argument, where any program could read it (ps).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			run := args[0]
			if !events.ValidRunID(run) {
				return fmt.Errorf("%q is not a run id; use the one the run printed (run_...)", run)
			}
			if row < 0 {
				return fmt.Errorf("--row %d: rows count from 1", row)
			}
			in := &typed{cmd: cmd}
			token, err := in.read("token (the asking run printed it)", "token")
			if err != nil {
				return err
			}
			key, err := replay.DeriveAskKey(run, token)
			if err != nil {
				return err
			}
			text, err := in.read("answer", "answer")
			if err != nil {
				return err
			}
			sealed, err := key.SealAnswer(replay.Answer{Row: row, Answer: text})
			if err != nil {
				return err
			}
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				defer cancel()
				reply, err := replay.SendAnswer(ctx, c.Conn(), run, key, sealed)
				switch {
				case errors.Is(err, nats.ErrNoResponders):
					return fmt.Errorf("no question is waiting in run %s: it may have been answered, timed out, or the run ended", run)
				case errors.Is(err, replay.ErrNotAccepted):
					return fmt.Errorf("run %s did not take the answer: type the token it printed for the question waiting now (each question has its own)", run)
				case errors.Is(err, context.DeadlineExceeded):
					return fmt.Errorf("run %s did not reply in 10s: is its question still waiting?", run)
				case err != nil:
					return fmt.Errorf("answer run %s: %w", run, err)
				case reply.Error != "":
					return fmt.Errorf("run %s: %s", run, reply.Error)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "answered row %d, step %d of run %s\n", reply.Row, reply.Step, run)
				return nil
			})
		},
	}
	answer.Flags().IntVar(&row, "row", 0, "the row whose question this answers (default: whichever row is asking)")
	cmd.AddCommand(answer)
	return cmd
}

// typed reads what the person types: without echo on a terminal, else a
// line at a time from standard input, through one buffer so that no line
// is lost between two reads.
type typed struct {
	cmd *cobra.Command
	r   *bufio.Reader
}

func (in *typed) read(prompt, name string) (string, error) {
	if f, ok := in.cmd.InOrStdin().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(in.cmd.ErrOrStderr(), "%s: ", prompt)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(in.cmd.ErrOrStderr())
		if err != nil {
			return "", fmt.Errorf("read the %s: %w", name, err)
		}
		if len(b) == 0 {
			return "", fmt.Errorf("the %s is empty", name)
		}
		return string(b), nil
	}
	if in.r == nil {
		in.r = bufio.NewReader(in.cmd.InOrStdin())
	}
	line, err := in.r.ReadString('\n')
	if err != nil && line == "" {
		return "", fmt.Errorf("no %s on standard input (the token on the first line, the answer on the second)", name)
	}
	v := strings.TrimRight(line, "\r\n")
	if v == "" {
		return "", fmt.Errorf("the %s is empty", name)
	}
	return v, nil
}
