package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/consent"
)

// newConsentCmd is `reprise consent`: answer the daemon's consent prompts
// from a terminal, and review or revoke remembered answers.
func newConsentCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "consent",
		Short: "Answer recording consent prompts and manage remembered answers",
		Long: `Before anything is recorded, the daemon asks the person at this machine: in its
terminal, in a desktop dialog, and in a queue you can answer from any terminal
with these commands. Only an approval here (or a remembered one) lets a recording
start; the platform can ask, never approve.`,
	}
	cmd.AddCommand(
		newConsentListCmd(g), newConsentApproveCmd(g), newConsentDenyCmd(g),
		newConsentChoicesCmd(g), newConsentForgetCmd(g),
	)
	return cmd
}

// withConsentClient dials the daemon for f, with its consent queue.
func withConsentClient(g *globals, cmd *cobra.Command, f func(context.Context, *client.Consent) error) error {
	return g.with(cmd, func(ctx context.Context, c *client.Client) error { return f(ctx, c.Consent()) })
}

func newConsentListCmd(g *globals) *cobra.Command {
	list := func(ctx context.Context, c *client.Client, _ []string) ([]api.ConsentPrompt, error) {
		return c.Consent().List(ctx)
	}
	return query(g, &cobra.Command{Use: "list", Short: "Show the consent prompts waiting for an answer", Args: cobra.NoArgs}, list,
		func(out io.Writer, ps []api.ConsentPrompt) error {
			return consent.WritePrompts(out, ps, func(id string) (string, string) {
				return "reprise consent approve " + id + " [--remember]", "reprise consent deny " + id
			})
		})
}

func newConsentApproveCmd(g *globals) *cobra.Command {
	var remember bool
	cmd := &cobra.Command{
		Use:   "approve ID",
		Short: "Approve a waiting consent prompt",
		Long:  "Approve the prompt ID from `reprise consent list`. With --remember, recordings of the same kind start without asking until you run `reprise consent forget`.",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withConsentClient(g, cmd, func(ctx context.Context, c *client.Consent) error {
				if err := c.Approve(ctx, args[0], remember); err != nil {
					return wordPromptGone(err)
				}
				msg := "Approved."
				if remember {
					msg = "Approved, and remembered for recordings like this one (`reprise consent forget` undoes it)."
				}
				fmt.Fprintln(cmd.OutOrStdout(), msg)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&remember, "remember", false, "remember this answer for recordings of the same kind")
	return cmd
}

func newConsentDenyCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "deny ID",
		Short: "Deny a waiting consent prompt",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withConsentClient(g, cmd, func(ctx context.Context, c *client.Consent) error {
				if err := c.Deny(ctx, args[0]); err != nil {
					return wordPromptGone(err)
				}
				fmt.Fprintln(cmd.OutOrStdout(), "Denied: nothing will be recorded.")
				return nil
			})
		},
	}
}

func newConsentChoicesCmd(g *globals) *cobra.Command {
	choices := func(ctx context.Context, c *client.Client, _ []string) ([]api.ConsentChoice, error) {
		return c.Consent().Choices(ctx)
	}
	return query(g, &cobra.Command{Use: "choices", Short: "Show the remembered consent answers", Args: cobra.NoArgs}, choices, consent.WriteChoices)
}

func newConsentForgetCmd(g *globals) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "forget [KIND | --all]",
		Short: "Forget a remembered consent answer, so the next such recording asks again",
		Args: func(_ *cobra.Command, args []string) error {
			if all == (len(args) == 1) || len(args) > 1 {
				return fmt.Errorf("give one KIND (see `reprise consent choices`) or --all")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			forget := func(ctx context.Context, c *client.Client) (int, error) {
				if all {
					return c.Consent().ForgetAll(ctx)
				}
				return c.Consent().Forget(ctx, strings.TrimSpace(args[0]))
			}
			return call(g, cmd, "", forget, func(out io.Writer, n int) error {
				switch {
				case n == 0 && all:
					fmt.Fprintln(out, "No answers were remembered: every recording asks already.")
				case n == 0:
					fmt.Fprintf(out, "No answer was remembered for %s: such recordings ask already.\n", args[0])
				default:
					fmt.Fprintf(out, "Forgot %d remembered answer%s; the next such recording asks again.\n", n, plural(n))
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "forget every remembered answer")
	return cmd
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
