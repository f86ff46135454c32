package events

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/nats-io/nats.go"
)

// The local CLI's identity on the daemon's server. The server admits the
// CLI user only with a connection name of CLINamePrefix and an inbox
// prefix of its own, and lets that connection alone subscribe there, so no
// other CLI process reads its replies (consent tokens, the extension's
// pairing secret).
const (
	CLIUser        = "cli"
	CLINamePrefix  = "reprise-cli:"
	CLIInboxPrefix = "_INBOX_cli_"
)

// NewCLIInbox returns a fresh inbox prefix for one CLI connection: 128
// random bits after CLIInboxPrefix, which no other connection can guess.
func NewCLIInbox() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return CLIInboxPrefix + hex.EncodeToString(b[:])
}

// CLIOptions are the options a local CLI connects with: the CLI user with
// password, and an inbox prefix of its own (NewCLIInbox), claimed by the
// connection's name.
func CLIOptions(password string) []nats.Option {
	inbox := NewCLIInbox()
	return []nats.Option{
		nats.UserInfo(CLIUser, password),
		nats.CustomInboxPrefix(inbox),
		nats.Name(CLINamePrefix + inbox),
	}
}
