package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/daemon"
)

func newDaemonCmd(g *globals) *cobra.Command {
	var remote, remoteCreds, listen string
	cmd := &cobra.Command{
		Use:   "daemon",
		Short: "Run the shim in the foreground until SIGINT or SIGTERM",
		Long: `Run the shim: the embedded NATS server with its streams, the local CLI's listener
on 127.0.0.1 and the browser extension's WebSocket. Settings come from config.json in
the data dir; the platform flags override it. The platform's way in is off unless one
of them is given.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := g.logger()
			if err != nil {
				return err
			}
			home, err := g.resolveHome()
			if err != nil {
				return err
			}
			cfg, err := daemon.LoadConfig(home)
			if err != nil {
				return err
			}
			if remote != "" {
				cfg.Platform.RemoteURL, cfg.Platform.RemoteCredentials = remote, remoteCreds
			}
			if listen != "" {
				cfg.Platform.Listen = listen
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			d, err := daemon.Start(ctx, daemon.Options{Home: home, Config: cfg, Logger: log})
			if err != nil {
				return err
			}
			<-ctx.Done()
			log.Info("stopping", "reason", context.Cause(ctx))
			d.Close()
			return nil
		},
	}
	cmd.Flags().StringVar(&remote, "platform-remote", "", "connect out as a leafnode to the platform's NATS at this URL")
	cmd.Flags().StringVar(&remoteCreds, "platform-creds", "", "credentials file for --platform-remote")
	cmd.Flags().StringVar(&listen, "platform-listen", "", "accept the platform's leafnode on host:port")
	return cmd
}
