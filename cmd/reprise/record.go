package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/consent"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/ops"
)

func newRecordCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "record",
		Short: "Start and stop a recording on this machine",
	}
	var mode, route, channels string
	var yes bool
	start := &cobra.Command{
		Use:   "start",
		Short: "Ask for your consent here, then start recording",
		Long: `Ask the daemon for a consent token, answer its question here (or in the dialog the
daemon shows), and start recording with that token. --yes answers yes for you, the
person at this terminal.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			req := ops.ConsentRequest{Mode: mode, InterpretationRoute: route, Channels: splitList(channels)}
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
				defer cancel()
				started, err := c.Record(ctx, req, consentAnswer(yes, cmd.InOrStdin(), cmd.OutOrStdout()))
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "recording %s (%s, %s, interpreted %s)\n",
					started.RecordingID, req.Mode, strings.Join(req.Channels, ", "), started.InterpretationRoute)
				if slices.Contains(req.Channels, capture.ChannelBrowser) {
					home, err := g.resolveHome()
					if err != nil {
						return err
					}
					// What the person does in the browser before the extension
					// knows is not recorded: say when it does.
					if client.WaitBrowserJoined(ctx, home, started.RecordingID, joinWait) {
						fmt.Fprintln(cmd.OutOrStdout(), "the browser extension is recording (REC on its badge)")
					} else {
						fmt.Fprintln(cmd.ErrOrStderr(), "warning: the browser extension has not joined yet; wait for REC on its badge before you start")
					}
				}
				fmt.Fprintln(cmd.OutOrStdout(), "stop it with: reprise record stop")
				return nil
			})
		},
	}
	start.Flags().StringVar(&mode, "mode", capture.ModeDemonstration, "demonstration or copilot")
	start.Flags().StringVar(&route, "route", interpret.RouteExtractThenCloud, "interpretation route: extract_then_cloud, local_vlm or screenshots_to_cloud")
	start.Flags().StringVar(&channels, "channels", "floor,browser", "comma-separated channels: floor, browser, desktop_ax")
	start.Flags().BoolVar(&yes, "yes", false, "answer the consent question yes without asking")

	stop := &cobra.Command{
		Use:   "stop [REC]",
		Short: "Stop the running recording and print its summary",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				id, err := recordingArg(ctx, c, args)
				if err != nil {
					return err
				}
				sum, err := c.Stop(ctx, id)
				if err != nil {
					return err
				}
				cov := sum.EnrichmentCoverage
				fmt.Fprintf(cmd.OutOrStdout(), "stopped %s: %d steps in %.1f s (dom %d, ax %d, none %d)\n",
					sum.RecordingID, sum.StepCount, sum.DurationSeconds, cov.DOM, cov.AX, cov.None)
				for _, w := range sum.Warnings {
					fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", w)
				}
				if sum.LostSteps > 0 {
					return fmt.Errorf("recording %s is incomplete: %d step(s) lost", sum.RecordingID, sum.LostSteps)
				}
				return nil
			})
		},
	}
	cmd.AddCommand(start, stop)
	return cmd
}

// recordingArg is the recording [REC] names: the argument, else the one
// running.
func recordingArg(ctx context.Context, c *client.Client, args []string) (string, error) {
	if len(args) == 1 {
		return args[0], nil
	}
	return c.ActiveRecording(ctx)
}

// joinWait bounds how long record start waits for the extension, which
// says hello every two seconds.
const joinWait = 10 * time.Second

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// consentAnswer offers the person at this terminal the consent question
// (or answers it yes, with --yes); a dialog answered on screen ends the
// wait just the same.
func consentAnswer(yes bool, in io.Reader, out io.Writer) client.ConsentAnswer {
	if yes {
		return func(api.ConsentPrompt, <-chan struct{}) (approve, remember, answered bool) { return true, false, true }
	}
	return consent.NewAsking(in, out).Answer
}
