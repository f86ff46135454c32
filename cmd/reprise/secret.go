package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/internal/termtext"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/store"
)

// keychainSecret reads a secret a skill names (a certificate's
// passphrase_key) from the OS keychain.
func keychainSecret(name string) (string, error) {
	v, err := store.Secret(name)
	if errors.Is(err, store.ErrNoSecret) {
		return "", fmt.Errorf("no secret %s in the keychain: set it with `reprise secret set %s`", name, name)
	}
	return v, err
}

func newSecretCmd(*globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "secret",
		Short: "Keep secrets a skill names (a client certificate's passphrase) in the OS keychain",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "set NAME",
		Short: "Store a secret, typed without echo (or read from standard input)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if !skills.ValidProfile(name) {
				return fmt.Errorf("secret name %q: use letters, digits, '-' and '_', up to 64", name)
			}
			v, err := (&termtext.Typed{In: cmd.InOrStdin(), Prompt: cmd.ErrOrStderr()}).Read("secret "+name, "secret")
			if err != nil {
				return err
			}
			if err := store.SetSecret(name, v); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "secret %s kept in the keychain\n", name)
			return nil
		},
	}, &cobra.Command{
		Use:   "delete NAME",
		Short: "Remove a secret from the keychain",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			err := store.DeleteSecret(args[0])
			if errors.Is(err, store.ErrNoSecret) {
				return fmt.Errorf("no secret %s in the keychain", args[0])
			}
			return err
		},
	})
	return cmd
}
