package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/termtext"
	"github.com/reprise-dev/reprise/replay"
)

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
			in := &termtext.Typed{In: cmd.InOrStdin(), Prompt: cmd.ErrOrStderr(), Lines: " (the token on the first line, the answer on the second)"}
			token, err := in.Read("token (the asking run printed it)", "token")
			if err != nil {
				return err
			}
			key, err := replay.DeriveAskKey(run, token)
			if err != nil {
				return err
			}
			text, err := in.Read("answer", "answer")
			if err != nil {
				return err
			}
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				reply, err := replay.AnswerRun(ctx, c.Conn(), key, replay.Answer{Row: row, Answer: text})
				if err != nil {
					return err
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
