package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/copilot"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/interpret"
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
				id, err := recordingArg(ctx, c, args)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if err := follow(ctx, c, id, out); err != nil {
					return err
				}
				asked, err := copilot.Clarify(ctx, c, copilot.Terminal{In: bufio.NewReader(cmd.InOrStdin()), Out: out}, id, header, sample)
				if err != nil {
					return err
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
