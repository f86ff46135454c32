package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/extension"
)

func newExtensionCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "extension",
		Short: "Install and pair the reprise browser extension",
	}
	path := &cobra.Command{
		Use:   "path",
		Short: "Write the unpacked extension to the data dir and print where it is",
		Long: `Write the extension into the data dir and print its folder, for "Load unpacked" in
chrome://extensions or Chromium's --load-extension.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			home, err := g.resolveHome()
			if err != nil {
				return err
			}
			dir, err := extension.WriteTo(filepath.Join(home, "extension"))
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), dir)
			return nil
		},
	}
	pair := &cobra.Command{
		Use:   "pair",
		Short: "Print the link that pairs the loaded extension with this daemon",
		Long: `Print a chrome-extension:// link; open it once in the browser where the extension is
loaded. The credentials ride in the link's fragment, which never leaves the browser.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pairing := func(ctx context.Context, c *client.Client) (api.Pairing, error) { return c.Pairing(ctx) }
			return call(g, cmd, "", pairing, func(out io.Writer, p api.Pairing) error {
				_, err := fmt.Fprintln(out, extension.PairingURL(p.URL, p.User, p.Password))
				return err
			})
		},
	}
	cmd.AddCommand(path, pair)
	return cmd
}
