package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
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
			stop := func(ctx context.Context, c *client.Client) (api.GrantReply, error) { return c.StopComputer(ctx) }
			return call(g, cmd, "", stop, func(out io.Writer, g api.GrantReply) error {
				if !g.Active {
					fmt.Fprintln(out, "stopped: no grant was active; programs may not take one for 30 s")
					return nil
				}
				fmt.Fprintf(out, "stopped: grant %s on %s (%s) revoked; programs may not take another for 30 s\n", g.ID, g.App, g.Title)
				return nil
			})
		},
	}
}

func newComputerCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "computer", Short: "Scope grants on this desktop: the windows reprise may operate, and the one grant"}
	targets := query(g, &cobra.Command{Use: "targets", Short: "List this desktop's windows, front to back; the refused ones with why", Args: cobra.NoArgs},
		func(ctx context.Context, c *client.Client, _ []string) ([]api.Target, error) { return c.Targets(ctx) }, computer.WriteTargets)
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
			grant := func(ctx context.Context, c *client.Client) (api.GrantReply, error) {
				fmt.Fprintln(cmd.ErrOrStderr(), "confirm the grant where the daemon asks you: a dialog on your desktop, or the daemon's terminal")
				return c.Grant(ctx, req)
			}
			return call(g, cmd, "", grant, func(out io.Writer, r api.GrantReply) error {
				_, err := fmt.Fprintf(out, "grant %s: %s scope on %s (%s), %s, %d actions\n", r.ID, r.Scope, termtext.Line(r.App), termtext.Line(r.Title), r.Capture, r.Budget)
				return err
			})
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
			active := func(ctx context.Context, c *client.Client) (api.GrantReply, error) { return c.ActiveGrant(ctx) }
			return call(g, cmd, "", active, computer.WriteGrant)
		},
	}
	revoke := &cobra.Command{
		Use:   "revoke GRANT",
		Short: "End a grant (Stop also keeps programs from taking another for 30 s)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			revoke := func(ctx context.Context, c *client.Client) (struct{}, error) {
				return struct{}{}, c.Revoke(ctx, args[0])
			}
			return call(g, cmd, "", revoke, func(out io.Writer, _ struct{}) error {
				_, err := fmt.Fprintf(out, "revoked %s\n", args[0])
				return err
			})
		},
	}
	cmd.AddCommand(targets, grant, status, revoke, newComputerRunCmd(g))
	return cmd
}
