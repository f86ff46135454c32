package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/audit"
	"github.com/reprise-dev/reprise/client"
)

// newAuditCmd is `reprise audit`: check and read the tamper-evident log of
// what the shim did.
func newAuditCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Check and read the audit log",
		Long: `The audit log records that something happened (a recording started or stopped, a
consent token was issued or used, a skill was built, a replay row committed), never
what was recorded. Its entries are chained with an HMAC under a key only the
daemon holds, so a change, removal or reordering shows.`,
	}
	cmd.AddCommand(newAuditVerifyCmd(g), newAuditTailCmd(g))
	return cmd
}

func newAuditVerifyCmd(g *globals) *cobra.Command {
	var format formatFlag
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check that no audit entry was changed, removed or reordered",
		Long: `Ask the daemon, which holds the audit key, to check the whole chain. Prints each
problem with its stream sequence and entry number, and exits 1 when there is any.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				r, err := audit.RequestVerify(ctx, c.Conn())
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if format == "json" {
					if err := writeJSON(out, r); err != nil {
						return err
					}
				} else if err := r.WriteText(out, "--format json"); err != nil {
					return err
				}
				return r.Err()
			})
		},
	}
	cmd.Flags().Var(&format, "format", "output format: text or json")
	return cmd
}

func newAuditTailCmd(g *globals) *cobra.Command {
	var (
		n      int
		follow bool
		format formatFlag
	)
	cmd := &cobra.Command{
		Use:   "tail",
		Short: "Print the last audit entries",
		Long: `Print the last N audit entries, oldest first; with -f keep printing new ones until
Ctrl-C. Entries are shown as stored: ` + "`reprise audit verify`" + ` says whether they can be trusted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				js, err := jetstream.New(c.Conn())
				if err != nil {
					return fmt.Errorf("audit tail: %w", err)
				}
				ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
				defer stop()
				return audit.Tail(ctx, js, n, follow, audit.PrintTail(cmd.OutOrStdout(), format == "json"))
			})
		},
	}
	cmd.Flags().IntVarP(&n, "lines", "n", 20, "how many of the last entries to print; 0 for all")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing new entries until Ctrl-C")
	cmd.Flags().Var(&format, "format", "output format: text or json (one object per entry)")
	return cmd
}
