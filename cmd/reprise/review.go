package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/review"
)

func newReviewCmd(g *globals) *cobra.Command {
	var noOpen bool
	cmd := &cobra.Command{
		Use:   "review REC",
		Short: "Review a recording in your browser: its steps and frames; remove steps, redact values, apply",
		Long: `Serve a page on 127.0.0.1 (a random port, a one-time link) that shows the
recording's steps in order with their frames, and lets you remove steps and redact
values, then apply the review. A skill is built only from reviewed recordings.
The page works with the keyboard alone. It stops once the review is applied.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				srv, err := review.Start(ctx, c.Reviewer(), args[0], review.Options{})
				if err != nil {
					return err
				}
				defer srv.Close()
				out := cmd.OutOrStdout()
				fmt.Fprintf(out, "review %s at:\n  %s\n", args[0], srv.URL())
				if !noOpen {
					if err := review.Open(srv.URL()); err != nil {
						fmt.Fprintf(out, "(open it yourself: %v)\n", err)
					}
				}
				select {
				case <-srv.Done():
					fmt.Fprintln(out, "review applied")
					// The confirmation page may still ask for its stylesheet.
					time.Sleep(time.Second)
					return nil
				case <-ctx.Done():
					return errors.New("stopped before the review was applied; nothing changed")
				}
			})
		},
	}
	cmd.Flags().BoolVar(&noOpen, "no-open", false, "print the link only; do not open a browser")
	return cmd
}
