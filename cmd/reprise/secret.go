package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/zalando/go-keyring"
	"golang.org/x/term"

	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/store"
)

// secretItem is the keychain item a named secret is kept in.
func secretItem(name string) string { return "secret:" + name }

// keychainSecret reads a secret a skill names (a certificate's
// passphrase_key) from the OS keychain.
func keychainSecret(name string) (string, error) {
	v, err := keyring.Get(store.KeyringService, secretItem(name))
	if errors.Is(err, keyring.ErrNotFound) {
		return "", fmt.Errorf("no secret %s in the keychain: set it with `reprise secret set %s`", name, name)
	}
	if err != nil {
		return "", fmt.Errorf("read secret %s from the keychain: %w", name, err)
	}
	return v, nil
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
			v, err := readSecret(cmd, name)
			if err != nil {
				return err
			}
			if err := keyring.Set(store.KeyringService, secretItem(name), v); err != nil {
				return fmt.Errorf("keep secret %s in the keychain: %w", name, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "secret %s kept in the keychain\n", name)
			return nil
		},
	}, &cobra.Command{
		Use:   "delete NAME",
		Short: "Remove a secret from the keychain",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			err := keyring.Delete(store.KeyringService, secretItem(args[0]))
			if errors.Is(err, keyring.ErrNotFound) {
				return fmt.Errorf("no secret %s in the keychain", args[0])
			}
			return err
		},
	})
	return cmd
}

// readSecret reads one line: from the terminal without echo, else from
// standard input (a pipe, for scripts).
func readSecret(cmd *cobra.Command, name string) (string, error) {
	if f, ok := cmd.InOrStdin().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(cmd.ErrOrStderr(), "secret %s: ", name)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(cmd.ErrOrStderr())
		if err != nil {
			return "", fmt.Errorf("read the secret: %w", err)
		}
		return string(b), nil
	}
	line, err := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
	if err != nil && line == "" {
		return "", errors.New("no secret on standard input")
	}
	v := strings.TrimRight(line, "\r\n")
	if v == "" {
		return "", errors.New("the secret is empty")
	}
	return v, nil
}
