package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skills/learn"
)

func newCopilotCmd(g *globals) *cobra.Command {
	var rows string
	cmd := &cobra.Command{
		Use:   "copilot [REC]",
		Short: "Follow a co-pilot recording live, say what each step did, then ask what changes per row",
		Long: `Follow the running co-pilot recording (or REC) as it happens: each step is told in
plain words. When the recording stops, the questions one demonstration cannot answer
are asked here: does this field change on every run, and which column holds it.
The answers are kept on the recording, and ` + "`reprise skill build`" + ` uses them.
--rows names a sample of the CSV, so its columns can be offered.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var header []string
			var sample [][]string
			var err error
			if rows != "" {
				if header, sample, err = readSample(rows); err != nil {
					return err
				}
			}
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				id := ""
				if len(args) == 1 {
					id = args[0]
				} else if id, err = c.ActiveRecording(ctx); err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if err := follow(ctx, c, id, out); err != nil {
					return err
				}
				// An answer may raise the next question (a field said to be the
				// same for every row leaves its CSV column to account for):
				// ask until the draft has none open.
				in := bufio.NewReader(cmd.InOrStdin())
				asked := false
				for round := 0; round < maxCopilotRounds; round++ {
					draft, err := c.DraftSkill(ctx, api.SkillBuildRequest{Recordings: []string{id}, Header: header, SampleRows: sample})
					if err != nil {
						return explainBuild(err)
					}
					if len(draft.Questions) == 0 {
						break
					}
					answers, err := askQuestions(in, out, draft.Questions, header)
					if err != nil {
						return err
					}
					if _, err := c.ConfirmAnswers(ctx, api.SkillConfirmRequest{RecordingID: id, Answers: answers}); err != nil {
						return err
					}
					asked = true
				}
				if !asked {
					fmt.Fprintln(out, "nothing to ask: the recording's values are settled")
					return nil
				}
				fmt.Fprintf(out, "answers recorded on %s.\nnext: reprise recordings review %s, then reprise skill build %s --name NAME\n", id, id, id)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&rows, "rows", "", "a sample of the CSV the skill will run on, to offer its columns")
	return cmd
}

// follow tells each step of recording id as it is recorded, from the steps
// already stored to the live stream, until the recording stops.
func follow(ctx context.Context, c *client.Client, id string, out io.Writer) error {
	rec, err := c.Follow(ctx, id, client.Follower{
		Step: func(s events.Step) { fmt.Fprintf(out, "%3d  %s\n", s.Seq, interpret.Narrate(s)) },
		Live: func() {
			fmt.Fprintf(out, "following %s; stop it with `reprise record stop` when the task is done\n", id)
		},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s stopped: %d steps\n", id, len(rec.Steps))
	return nil
}

// askQuestions puts each question to the person and returns their answers in
// learn.ParseConfirm's terms.
func askQuestions(in *bufio.Reader, out io.Writer, qs []ops.Question, header []string) (map[string]string, error) {
	answers := map[string]string{}
	for _, q := range qs {
		label := q.Label
		if label == "" {
			label = q.Parameter
		}
		switch learn.QuestionKind(q.Kind) {
		case learn.AskParameter, learn.AskSameValue, learn.AskAmbiguous, learn.AskMissingColumn, learn.AskRedacted:
		default:
			// The other questions (options, empty cells, columns, fields,
			// success) say what to answer: the person types it.
			a, err := freeAnswer(in, out, q)
			if err != nil {
				return nil, err
			}
			answers[q.Parameter] = a
			continue
		}
		if q.Kind == string(learn.AskParameter) || q.Kind == string(learn.AskSameValue) {
			yes, err := yesNo(in, out, fmt.Sprintf("Does %s change on every run? [y/n] ", label))
			if err != nil {
				return nil, err
			}
			if !yes {
				answers[q.Parameter] = learn.ConstAnswer
				continue
			}
		}
		col, err := column(in, out, q, label, header)
		if err != nil {
			return nil, err
		}
		if col == learn.ConstAnswer {
			col = learn.ColumnPrefix + col
		}
		answers[q.Parameter] = col
	}
	return answers, nil
}

// maxCopilotRounds bounds the rounds of questions: each answers what the
// last raised.
const maxCopilotRounds = 5

// freeAnswer puts a question that says its own answers, and reads one:
// for "Answer column:X=<field label> or column:X=ignore", the part after
// the "=".
func freeAnswer(in *bufio.Reader, out io.Writer, q ops.Question) (string, error) {
	for {
		fmt.Fprintf(out, "%s\n[%s] ", q.Text, q.Parameter)
		line, err := in.ReadString('\n')
		if a := strings.TrimSpace(line); a != "" {
			return a, nil
		}
		if err != nil {
			return "", errors.New("no answer: the questions stay open")
		}
	}
}

func yesNo(in *bufio.Reader, out io.Writer, prompt string) (bool, error) {
	for {
		fmt.Fprint(out, prompt)
		line, err := in.ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		}
		if err != nil {
			return false, errors.New("no answer: the questions stay open")
		}
	}
}

// column asks which column holds a parameter, offering the likely one.
func column(in *bufio.Reader, out io.Writer, q ops.Question, label string, header []string) (string, error) {
	def := label
	if len(q.Columns) > 0 {
		def = q.Columns[0]
	}
	for {
		if len(header) > 0 {
			fmt.Fprintf(out, "Which column holds %s? (%s) [%s] ", label, strings.Join(header, ", "), def)
		} else {
			fmt.Fprintf(out, "Which column holds %s? [%s] ", label, def)
		}
		line, err := in.ReadString('\n')
		a := strings.TrimSpace(line)
		if a == "" && err == nil {
			a = def
		}
		if a != "" && (len(header) == 0 || slices.Contains(header, a)) {
			return a, nil
		}
		if err != nil {
			return "", errors.New("no answer: the questions stay open")
		}
		fmt.Fprintf(out, "the CSV has no column %q\n", a)
	}
}
