package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// asker puts a run's questions to the person: each is shown on this
// terminal and answered with `reprise runs answer RUN`, from here or any
// terminal that reaches the daemon. One question at a time: rows filed in
// parallel wait their turn.
type asker struct {
	nc  *nats.Conn
	out io.Writer
	mu  sync.Mutex
}

func (a *asker) ask(ctx context.Context, q replay.Question) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	sub, err := a.nc.SubscribeSync(events.AskSubject(q.RunID))
	if err != nil {
		return "", fmt.Errorf("wait for an answer: %w", err)
	}
	defer sub.Unsubscribe()
	if err := a.nc.FlushWithContext(ctx); err != nil {
		return "", fmt.Errorf("wait for an answer: %w", err)
	}
	fmt.Fprintf(a.out, "\nrow %d, step %d asks: %s\n  answer with: reprise runs answer %s   (the row waits %s)\n", q.Row, q.Step, q.Prompt, q.RunID, q.Wait.Round(time.Second))
	for {
		msg, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			return "", err
		}
		var ans replay.Answer
		reply := replay.AnswerReply{Row: q.Row, Step: q.Step}
		switch err := json.Unmarshal(msg.Data, &ans); {
		case err != nil:
			reply = replay.AnswerReply{Error: "not an answer: " + err.Error()}
		case ans.Row != 0 && ans.Row != q.Row:
			reply = replay.AnswerReply{Error: fmt.Sprintf("row %d is not asking; row %d is", ans.Row, q.Row)}
		case ans.Answer == "":
			reply = replay.AnswerReply{Error: "the answer is empty"}
		}
		b, _ := json.Marshal(reply)
		_ = msg.Respond(b)
		if reply.Error == "" {
			fmt.Fprintf(a.out, "  row %d, step %d: answered\n", q.Row, q.Step)
			return ans.Answer, nil
		}
	}
}

func newRunsCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "runs", Short: "Work with replay runs that are going on"}
	var row int
	answer := &cobra.Command{
		Use:   "answer RUN",
		Short: "Answer the question a run's row is waiting on (typed without echo, or read from standard input)",
		Long: `A skill's ask step (a one-time code, a captcha, a password it never stores) pauses
its row with the browser open until someone answers. The answer goes to the
run directly, over the daemon's connection: it is never stored.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			run := args[0]
			if !events.ValidRunID(run) {
				return fmt.Errorf("%q is not a run id; use the one the run printed (run_...)", run)
			}
			if row < 0 {
				return fmt.Errorf("--row %d: rows count from 1", row)
			}
			text, err := readSecret(cmd, "answer")
			if err != nil {
				return err
			}
			c, err := g.dial()
			if err != nil {
				return err
			}
			defer c.Close()
			b, _ := json.Marshal(replay.Answer{Row: row, Answer: text})
			ctx, cancel := context.WithTimeout(cmd.Context(), 10*time.Second)
			defer cancel()
			msg, err := askRun(ctx, c.Conn(), run, b)
			if errors.Is(err, nats.ErrNoResponders) {
				return fmt.Errorf("no question is waiting in run %s: it may have been answered, timed out, or the run ended", run)
			}
			if err != nil {
				return fmt.Errorf("answer run %s: %w", run, err)
			}
			var reply replay.AnswerReply
			if err := json.Unmarshal(msg.Data, &reply); err != nil {
				return fmt.Errorf("answer run %s: the run's reply: %w", run, err)
			}
			if reply.Error != "" {
				return fmt.Errorf("run %s: %s", run, reply.Error)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "answered row %d, step %d of run %s\n", reply.Row, reply.Step, run)
			return nil
		},
	}
	answer.Flags().IntVar(&row, "row", 0, "the row whose question this answers (default: whichever row is asking)")
	cmd.AddCommand(answer)
	return cmd
}

// asks says whether a skill's rows wait for a person's answer.
func asks(s *skills.Skill) bool {
	for _, st := range s.Steps {
		if st.Action == skills.ActionAsk || st.Secret {
			return true
		}
	}
	return false
}

// askRun sends an answer to run and waits for its reply. The reply comes
// on a subject under the run's own (a CLI may not answer into another
// connection's inbox), which only CLI connections can read.
func askRun(ctx context.Context, nc *nats.Conn, run string, data []byte) (*nats.Msg, error) {
	reply := events.AskSubject(run) + ".reply." + nats.NewInbox()[len(nats.InboxPrefix):]
	sub, err := nc.SubscribeSync(reply)
	if err != nil {
		return nil, err
	}
	defer sub.Unsubscribe()
	if err := nc.PublishRequest(events.AskSubject(run), reply, data); err != nil {
		return nil, err
	}
	msg, err := sub.NextMsgWithContext(ctx)
	if err != nil {
		return nil, err
	}
	if msg.Header.Get("Status") == "503" {
		return nil, nats.ErrNoResponders
	}
	return msg, nil
}
