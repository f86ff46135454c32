package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/doctor"
)

func newDoctorCmd(g *globals) *cobra.Command {
	var format formatFlag
	var request bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Print what this machine can do for reprise, and why not",
		Long: `Check the data dir, the daemon, the keychain, the display, the browser, OCR and the
capture sources, and say for each what is missing and how to get it. On macOS it checks
the Accessibility, Input Monitoring and Screen Recording permissions; --request first has
macOS show its prompt for each one reprise lacks (reprise must restart to see a grant).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			home, err := g.resolveHome()
			if err != nil {
				return err
			}
			f := doctor.Flags{JSON: format == "json", Request: request}
			return doctor.Main(cmd.Context(), f, doctor.Probes(home, func() (api.Status, error) { return client.QueryStatus(home) }), os.Stdout, os.Stderr)
		},
	}
	cmd.Flags().Var(&format, "format", "output format: text or json")
	cmd.Flags().BoolVar(&request, "request", false, "on macOS, first ask for the permissions reprise lacks (Accessibility, Input Monitoring, Screen Recording)")
	return cmd
}
