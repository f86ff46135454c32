package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/internal/termtext"
)

// newStopCmd is the person's Stop, one command away whatever runs.
func newStopCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "stop",
		Short: "Stop whatever operates this desktop: revoke the grant; a program may not take another for 30 s",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := g.dial()
			if err != nil {
				return err
			}
			defer c.Close()
			g, err := c.StopComputer(cmd.Context())
			if err != nil {
				return err
			}
			if !g.Active {
				fmt.Fprintln(cmd.OutOrStdout(), "stopped: no grant was active; programs may not take one for 30 s")
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "stopped: grant %s on %s (%s) revoked; programs may not take another for 30 s\n", g.ID, g.App, g.Title)
			return nil
		},
	}
}

func newComputerCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "computer", Short: "Scope grants on this desktop: the windows reprise may operate, and the one grant"}
	var format string
	targets := &cobra.Command{
		Use:   "targets",
		Short: "List this desktop's windows, front to back; the refused ones with why",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			c, err := g.dial()
			if err != nil {
				return err
			}
			defer c.Close()
			ts, err := c.Targets(cmd.Context())
			if err != nil {
				return err
			}
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), ts)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "WINDOW\tAPP\tTITLE\tREFUSED")
			for _, t := range ts {
				refused := "-"
				if t.Refused != "" {
					refused = t.Refused + ": " + t.Reason
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ID, t.App, t.Title, refused)
			}
			return tw.Flush()
		},
	}
	targets.Flags().StringVar(&format, "format", "text", "output format: text or json")
	var req api.CreateGrantRequest
	var pixels bool
	grant := &cobra.Command{
		Use:   "grant [--window ID]",
		Short: "Issue your own grant: the front window reprise may operate, or --window (pinned)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if req.WindowID != "" {
				req.Scope = computer.ScopeWindow
			}
			if pixels {
				req.Capture = computer.CapturePixels
			}
			c, err := g.dial()
			if err != nil {
				return err
			}
			defer c.Close()
			fmt.Fprintln(cmd.ErrOrStderr(), "confirm the grant where the daemon asks you: a dialog on your desktop, or the daemon's terminal")
			r, err := c.Grant(cmd.Context(), req)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "grant %s: %s scope on %s (%s), %s, %d actions\n", r.ID, r.Scope, termtext.Line(r.App), termtext.Line(r.Title), r.Capture, r.Budget)
			return nil
		},
	}
	grant.Flags().StringVar(&req.WindowID, "window", "", "pin the grant to this window (as `reprise computer targets` lists it)")
	grant.Flags().BoolVar(&pixels, "pixels", false, "let the grant take screenshots, not only read the accessibility tree")
	grant.Flags().IntVar(&req.Budget, "budget", 0, "input actions before the grant closes (default 200)")
	grant.Flags().StringVar(&req.Idle, "idle", "", "how long without an action before the grant closes (default 5m)")
	status := &cobra.Command{
		Use:   "status",
		Short: "Show the active grant",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := g.dial()
			if err != nil {
				return err
			}
			defer c.Close()
			r, err := c.ActiveGrant(cmd.Context())
			if err != nil {
				return err
			}
			if !r.Active {
				fmt.Fprintln(cmd.OutOrStdout(), "no grant is active")
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "grant %s by %s: %s scope on %s (%s, window %s), revision %d, %s, %d actions left\n",
				r.ID, r.Issuer, r.Scope, r.App, r.Title, r.WindowID, r.Revision, r.Capture, r.Budget)
			return nil
		},
	}
	revoke := &cobra.Command{
		Use:   "revoke GRANT",
		Short: "End a grant (Stop also keeps programs from taking another for 30 s)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := g.dial()
			if err != nil {
				return err
			}
			defer c.Close()
			if err := c.Revoke(cmd.Context(), args[0]); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "revoked %s\n", args[0])
			return nil
		},
	}
	cmd.AddCommand(targets, grant, status, revoke, newComputerRunCmd(g))
	return cmd
}
