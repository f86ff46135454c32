package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/recordings"
)

// newRecordingsCmd is `reprise recordings`: list, show, fetch and review the recordings kept.
func newRecordingsCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "recordings",
		Short: "List, show and fetch the recordings this machine keeps",
	}
	type listing struct {
		Recordings []api.RecordingListing `json:"recordings"`
	}
	list := query(g, &cobra.Command{Use: "list", Short: "List the recordings kept, oldest first", Args: cobra.NoArgs},
		func(ctx context.Context, c *client.Client, _ []string) (l listing, err error) {
			l.Recordings, err = c.List(ctx)
			return l, err
		},
		func(out io.Writer, l listing) error { return recordings.WriteList(out, l.Recordings) })
	show := query(g, &cobra.Command{Use: "show REC", Short: "Show a recording's steps", Args: cobra.ExactArgs(1)},
		func(ctx context.Context, c *client.Client, args []string) (*events.Recording, error) {
			return c.Fetch(ctx, args[0])
		}, recordings.WriteSteps)

	var fetchFormat string
	fetch := &cobra.Command{
		Use:   "fetch REC",
		Short: "Print a whole recording as RECORDING_FETCH returns it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if fetchFormat != "json" {
				return fmt.Errorf("--format %q: fetch prints json only", fetchFormat)
			}
			fetch := func(ctx context.Context, c *client.Client) (*events.Recording, error) { return c.Fetch(ctx, args[0]) }
			return call(g, cmd, "json", fetch, nil)
		},
	}
	fetch.Flags().StringVar(&fetchFormat, "format", "json", "output format: json")
	var remove, redact string
	review := &cobra.Command{
		Use:   "review REC",
		Short: "Apply your review: remove steps, blank their values; skills need one",
		Long: `Apply a review to a stopped recording: --remove drops steps, --redact blanks their
values in the kept copy. Look at the steps first with ` + "`reprise recordings show REC`" + `.
A skill is built only from recordings reviewed at least once; a review with
nothing to remove or redact says the recording is fine as it is.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			req := ops.ReviewRequest{RecordingID: args[0]}
			var err error
			if req.RemovedStepSeqs, err = parseSeqs("--remove", remove); err != nil {
				return err
			}
			if req.RedactedStepSeqs, err = parseSeqs("--redact", redact); err != nil {
				return err
			}
			review := func(ctx context.Context, c *client.Client) (ops.ReviewApplied, error) { return c.Review(ctx, req) }
			return call(g, cmd, "", review, func(out io.Writer, applied ops.ReviewApplied) error {
				_, err := fmt.Fprintf(out, "reviewed %s: %d steps kept\n", applied.RecordingID, applied.StepCount)
				return err
			})
		},
	}
	review.Flags().StringVar(&remove, "remove", "", "comma-separated step seqs to remove")
	review.Flags().StringVar(&redact, "redact", "", "comma-separated step seqs whose values to blank")
	cmd.AddCommand(list, show, fetch, review)
	return cmd
}

// parseSeqs reads "2,5, 7" as step seqs.
func parseSeqs(flag, s string) ([]uint64, error) {
	var out []uint64
	for _, p := range splitList(s) {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("%s: %q is not a step seq (a whole number from 1, as `reprise recordings show` lists them)", flag, p)
		}
		out = append(out, n)
	}
	return out, nil
}
