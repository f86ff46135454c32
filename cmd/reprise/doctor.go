package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/doctor"
)

func newDoctorCmd(g *globals) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Print what this machine can do for reprise, and why not",
		Long: `Check the data dir, the daemon, the keychain, the display, the browser, OCR and the
capture sources, and say for each what is missing and how to get it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			home, err := g.resolveHome()
			if err != nil {
				return err
			}
			status := func() (string, error) {
				st, err := daemon.QueryStatus(home)
				if err != nil {
					return "", err
				}
				return fmt.Sprintf("running, pid %d, machine %s", st.PID, st.MachineID), nil
			}
			r := doctor.Run(cmd.Context(), runtime.GOOS, doctor.Probes(home, status))
			if format == "json" {
				return r.WriteJSON(os.Stdout)
			}
			return r.WriteText(os.Stdout)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}
