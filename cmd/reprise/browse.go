package main

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/replay/browser"
)

func newBrowseCmd(g *globals) *cobra.Command {
	var profile string
	cmd := &cobra.Command{
		Use:   "browse --profile NAME URL",
		Short: "Open a browser window on a profile, to log in to a site once for replays and workers",
		Long: `Open a visible Chromium on a browser profile at URL, for you to log in to a site:
the login stays in the profile (kept in the data dir, readable by you only) for the
replays that use it (--profile, or a skill's browser.profile) and for a hub worker that
offers it (reprise worker --profiles NAME). Close the window when done; Ctrl-C closes it
too, after the browser writes its profile.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			u, err := url.Parse(args[0])
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return errors.New("browse: URL must be an http:// or https:// address, such as https://crm.example.com/login")
			}
			if profile == "" {
				return errors.New("--profile is required: the name of the profile to log in with")
			}
			home, err := g.resolveHome()
			if err != nil {
				return err
			}
			dir, release, err := browser.HoldNamedProfile(home, profile, "", "browse")
			if err != nil {
				return err
			}
			defer release()
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			fmt.Fprintf(cmd.OutOrStdout(), "profile %s: log in in the window, then close it\n", profile)
			if err := browser.Browse(ctx, browser.Options{ProfileDir: dir, NoSandbox: browser.SandboxOff()}, u.String()); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "profile %s: kept\n", profile)
			return nil
		},
	}
	cmd.Flags().StringVar(&profile, "profile", "", "the profile's name, kept in the data dir (required)")
	return cmd
}
