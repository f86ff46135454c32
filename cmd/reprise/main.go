// Command reprise records a task once and replays it for every row of a CSV.
// This file wires the subcommands; each lives in its own file.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
)

func main() {
	if len(os.Args) > 1 {
		// A command with arguments started from Explorer is a shortcut or a
		// scheduled `reprise daemon`, not a double-click: cobra's splash
		// ("This is a command line tool") would end it.
		cobra.MousetrapHelpText = ""
	}
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "reprise:", wordError(err))
		os.Exit(1)
	}
}

// globals are the flags every subcommand shares.
type globals struct {
	home     string
	logLevel string
	log      *slog.Logger // from --log-level, set before any command runs
}

func newRoot() *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:   "reprise",
		Short: "Show a task once; reprise repeats it for every row of a CSV",
		Long: `reprise records a task you show it once on this machine (a web form, a desktop app),
turns it into a parameterized skill, and replays it for every row of a CSV, each row
exactly once and read back. Everything it sees is an event on an embedded NATS log
that stays on this machine.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       daemon.BuildVersion(),
		// Every command checks the global flags, whether it logs or not.
		PersistentPreRunE: func(*cobra.Command, []string) (err error) {
			g.log, err = g.logger()
			return err
		},
	}
	root.PersistentFlags().StringVar(&g.home, "home", "", "data dir (default $"+daemon.HomeEnv+", else the OS user data dir)")
	root.PersistentFlags().StringVar(&g.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	root.AddCommand(newDaemonCmd(g), newStatusCmd(g), newDoctorCmd(g),
		newRecordCmd(g), newRecordingsCmd(g), newSkillCmd(g), newReplayCmd(g), newCopilotCmd(g), newReviewCmd(g), newConsentCmd(g), newAuditCmd(g), newExtensionCmd(g), newElementsCmd(g), newWorkerCmd(g), newBrowseCmd(g), newSecretCmd(g), newRunsCmd(g), newStopCmd(g), newComputerCmd(g), newCacheCmd(g))
	return root
}

// resolveHome returns the data dir from --home, the environment or the OS.
func (g *globals) resolveHome() (string, error) {
	if g.home != "" {
		return g.home, nil
	}
	return daemon.Home()
}

func (g *globals) logger() (*slog.Logger, error) {
	levels := map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}
	level, ok := levels[strings.ToLower(g.logLevel)]
	if !ok {
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", g.logLevel)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})), nil
}

// call is a subcommand's dial/call/print: it dials the daemon, asks it with
// ask, and prints the reply, as indented JSON when format is "json", else
// with text ("" for a command without --format).
func call[R any](g *globals, cmd *cobra.Command, format formatFlag, ask func(context.Context, *client.Client) (R, error), text func(io.Writer, R) error) error {
	c, err := g.dial()
	if err != nil {
		return err
	}
	defer c.Close()
	r, err := ask(cmd.Context(), c)
	if err != nil {
		return err
	}
	if format == "json" {
		return writeJSON(cmd.OutOrStdout(), r)
	}
	return text(cmd.OutOrStdout(), r)
}

// query makes cmd ask the daemon one thing and print the reply, with text
// or, under its --format json, as indented JSON.
func query[R any](g *globals, cmd *cobra.Command, ask func(context.Context, *client.Client, []string) (R, error), text func(io.Writer, R) error) *cobra.Command {
	var format formatFlag
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return call(g, cmd, format, func(ctx context.Context, c *client.Client) (R, error) { return ask(ctx, c, args) }, text)
	}
	cmd.Flags().Var(&format, "format", "output format: text or json")
	return cmd
}

// with dials the daemon for f, with the command's context, and closes the
// connection after.
func (g *globals) with(cmd *cobra.Command, f func(context.Context, *client.Client) error) error {
	c, err := g.dial()
	if err != nil {
		return err
	}
	defer c.Close()
	return f(cmd.Context(), c)
}

// dial connects to the daemon serving the data dir.
func (g *globals) dial() (*client.Client, error) {
	home, err := g.resolveHome()
	if err != nil {
		return nil, err
	}
	return client.Dial(home)
}

// formatFlag is a --format flag's value: text (also the zero value) or
// json, refused as the flags are parsed when it is neither.
type formatFlag string

func (f *formatFlag) String() string {
	if *f == "" {
		return "text"
	}
	return string(*f)
}

// Type is what help shows after --format: a string, like any other.
func (f *formatFlag) Type() string { return "string" }

func (f *formatFlag) Set(s string) error {
	if s != "text" && s != "json" {
		return formatError(s)
	}
	*f = formatFlag(s)
	return nil
}

// formatError is a --format that is neither text nor json, worded whole
// (wordError shows it without pflag's wrapping).
type formatError string

func (e formatError) Error() string { return fmt.Sprintf("--format %q: want text or json", string(e)) }

// writeJSON prints v as indented JSON, the --format json of every command.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
