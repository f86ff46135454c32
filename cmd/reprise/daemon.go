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
	var remote, remoteCreds, listen, script, scriptChannels, scriptFrames, prompt string
	var speed float64
	var patient bool
	cmd := &cobra.Command{
		Use:   "daemon",
		Short: "Run the shim in the foreground until SIGINT or SIGTERM",
		Long: `Run the shim: the embedded NATS server with its streams, the local CLI's listener
on 127.0.0.1 and the browser extension's WebSocket. Settings come from config.json in
the data dir; the platform flags override it. The platform's way in is off unless one
of them is given.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log := g.log
			daemon.LimitMemory()
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
			opts := daemon.Options{Home: home, Config: cfg, Logger: log, ConsentPrompt: prompt}
			if script != "" {
				opts.Script = &daemon.Script{Path: script, Channels: splitList(scriptChannels), Speed: speed, Patient: patient, Frames: scriptFrames}
			}
			d, err := daemon.Start(ctx, opts)
			if err != nil {
				return wordDaemonError(err)
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
	cmd.Flags().StringVar(&script, "capture-script", "", "play this trajectory file (JSON recording or JSON lines) as a capture source, for demos and tests")
	cmd.Flags().StringVar(&scriptChannels, "capture-channels", "floor,browser", "channels the --capture-script source provides")
	cmd.Flags().Float64Var(&speed, "capture-speed", 1, "playback speed of --capture-script (1 real time, 0 as fast as possible)")
	cmd.Flags().BoolVar(&patient, "capture-patient", false, "--capture-script waits out a full capture queue instead of dropping steps, so a long file is stored whole")
	cmd.Flags().StringVar(&scriptFrames, "capture-frames", "", "directory of <screenshot_ref>.png frames that --capture-script keeps with its steps")
	cmd.Flags().StringVar(&prompt, "consent-prompt", daemon.PromptAuto, "how to ask for consent: auto (terminal, OS dialog and `reprise consent`) or cli (`reprise consent` and `reprise record start` only)")
	return cmd
}
