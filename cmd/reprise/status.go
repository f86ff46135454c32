package main

import (
	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/client"
)

func newStatusCmd(g *globals) *cobra.Command {
	var format formatFlag
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Report the running daemon",
		Long:  "Ask the daemon serving the data dir how it is; exits 1 when none is running.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			home, err := g.resolveHome()
			if err != nil {
				return err
			}
			st, err := client.QueryStatus(home)
			if err != nil {
				return err
			}
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), st)
			}
			return st.WriteText(cmd.OutOrStdout(), home)
		},
	}
	cmd.Flags().Var(&format, "format", "output format: text or json")
	return cmd
}
