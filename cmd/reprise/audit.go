package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	var format string
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check that no audit entry was changed, removed or reordered",
		Long: `Ask the daemon, which holds the audit key, to check the whole chain. Prints each
problem with its stream sequence and entry number, and exits 1 when there is any.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				nc := c.Conn()
				r, err := audit.RequestVerify(ctx, nc)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if format == "json" {
					if err := writeJSON(out, r); err != nil {
						return err
					}
				} else {
					printReport(out, r)
				}
				return r.Err()
			})
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

func printReport(w io.Writer, r audit.Report) {
	if r.OK {
		fmt.Fprintf(w, "The audit log is intact: %d entries, head at entry %d.\n", r.Messages, r.Head.Seq)
		return
	}
	fmt.Fprintf(w, "The audit log was changed: %d problem(s) in %d messages.\n", len(r.Problems)+r.Omitted, r.Messages)
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  %s\n", p)
	}
	if r.Omitted > 0 {
		fmt.Fprintf(w, "  ... and %d more (--format json lists the first %d)\n", r.Omitted, len(r.Problems))
	}
}

func newAuditTailCmd(g *globals) *cobra.Command {
	var (
		n      int
		follow bool
		format string
	)
	cmd := &cobra.Command{
		Use:   "tail",
		Short: "Print the last audit entries",
		Long: `Print the last N audit entries, oldest first; with -f keep printing new ones until
Ctrl-C. Entries are shown as stored: ` + "`reprise audit verify`" + ` says whether they can be trusted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				nc := c.Conn()
				js, err := jetstream.New(nc)
				if err != nil {
					return fmt.Errorf("audit tail: %w", err)
				}
				ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
				defer stop()
				out := cmd.OutOrStdout()
				lines := json.NewEncoder(out)
				return audit.Tail(ctx, js, n, follow, func(m audit.Message, e *audit.Entry, err error) error {
					if format == "json" {
						return lines.Encode(audit.NewTailLine(m, e, err))
					}
					if err != nil {
						_, werr := fmt.Fprintf(out, "%8d  (not an audit entry: %v)\n", m.StreamSeq, err)
						return werr
					}
					_, werr := fmt.Fprintln(out, e.Line())
					return werr
				})
			})
		},
	}
	cmd.Flags().IntVarP(&n, "lines", "n", 20, "how many of the last entries to print; 0 for all")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing new entries until Ctrl-C")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json (one object per entry)")
	return cmd
}
