package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/ops"
)

// newComputerRunCmd is `reprise computer run SCRIPT.js`: the script runs in
// the daemon's persistent runtime, through the active grant.
func newComputerRunCmd(g *globals) *cobra.Command {
	var req api.ScriptRunRequest
	cmd := &cobra.Command{
		Use:   "run SCRIPT.js",
		Short: "Run JavaScript against this desktop through the active grant (- reads stdin)",
		Long: `Run JavaScript with top-level await in the daemon's persistent desktop runtime:
desktop.windows/window/focusedWindow/displays/capabilities, screenshot, click,
doubleClick, move, drag, scroll, type, press, win.ax/find/ref and their
elements, desktop.clipboard, wait, assert, print. Every capture and input goes
through the active grant (reprise computer grant); --read-only runs throw on
input. Globals, screenshot frames and element refs last as long as the grant.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if req.Timeout < api.ScriptMinTimeout || req.Timeout > api.ScriptMaxTimeout {
				return fmt.Errorf("--timeout %s: give %s to %s", req.Timeout, api.ScriptMinTimeout, api.ScriptMaxTimeout)
			}
			code, err := readNamed(cmd.InOrStdin(), args[0], 1<<20)
			if err != nil {
				return fmt.Errorf("read the script: %w", err)
			}
			req.Code = string(code)
			run := func(ctx context.Context, c *client.Client) (ops.ComputerRunResult, error) {
				return c.RunScript(ctx, req)
			}
			return call(g, cmd, "", run, computer.WriteRun)
		},
	}
	cmd.Flags().BoolVar(&req.ReadOnly, "read-only", false, "allow screenshots and reads only: input, element changes, raising windows and clipboard writes throw")
	cmd.Flags().DurationVar(&req.Timeout, "timeout", api.ScriptDefaultTimeout, "the run's budget (1s to 5m)")
	cmd.Flags().StringVar(&req.GrantID, "grant", "", "run only if this grant is the active one")
	return cmd
}
