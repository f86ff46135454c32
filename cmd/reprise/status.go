package main

import (
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/client"
)

func newStatusCmd(g *globals) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Report the running daemon",
		Long:  "Ask the daemon serving the data dir how it is; exits 1 when none is running.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
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
			tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "daemon\trunning (pid %d, up %s, %s)\n", st.PID, time.Duration(st.UptimeSeconds*float64(time.Second)).Round(time.Second), st.Version)
			fmt.Fprintf(tw, "machine\t%s\n", st.MachineID)
			fmt.Fprintf(tw, "data dir\t%s\n", home)
			fmt.Fprintf(tw, "cli\t%s\n", st.ClientURL)
			fmt.Fprintf(tw, "extension\t%s\n", st.WebSocketURL)
			fmt.Fprintf(tw, "platform\t%s\n", st.Platform)
			fmt.Fprintf(tw, "keys\t%s\n", st.Keys)
			for _, s := range st.Streams {
				lost := ""
				if s.Lost > 0 {
					lost = fmt.Sprintf(", %d lost (damaged on disk)", s.Lost)
				}
				fmt.Fprintf(tw, "stream %s\t%d messages, %d bytes%s\n", s.Name, s.Messages, s.Bytes, lost)
			}
			if r := st.Recording; r != nil {
				lost := ""
				if r.Lost > 0 {
					lost = fmt.Sprintf(", %d lost", r.Lost)
				}
				fmt.Fprintf(tw, "recording\t%s: %d steps%s\n", r.ID, r.Steps, lost)
			}
			fmt.Fprintf(tw, "store\t%s\n", st.StoreState())
			fmt.Fprintf(tw, "disk\t%s\n", st.DiskState())
			for _, d := range st.Damaged {
				fmt.Fprintf(tw, "damaged\t%s: %s\n", d.RecordingID, d.Problem)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

func checkFormat(f string) error {
	if f != "text" && f != "json" {
		return fmt.Errorf("--format %q: want text or json", f)
	}
	return nil
}
