package hub

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"strings"

	"github.com/nats-io/nats.go"
)

// CredentialsEnv names the environment variable that may hold a hub's
// credentials, as a --hub-credentials file does: read by the process that
// needs them, never put on a command line.
const CredentialsEnv = "REPRISE_HUB_CREDENTIALS"

// ErrCredentialsInArgv is a hub URL on a command line that carries a user,
// password or token: every local user can read a command line (ps).
var ErrCredentialsInArgv = errors.New("a hub URL on the command line must not carry a user, password or token: every local user can read a command line (ps)")

// ErrNotURL: a hub URL that does not parse.
var ErrNotURL = errors.New("not a URL")

// URLError refuses a hub URL as CheckArgv found it: URL is shown with its
// password hidden, and Err is ErrNotURL or ErrCredentialsInArgv.
type URLError struct {
	URL string
	Err error
}

func (e *URLError) Error() string {
	if errors.Is(e.Err, ErrCredentialsInArgv) {
		return fmt.Sprintf("hub URL %s: %v. Give the URL without them, and put user:password in a file only you can read (chmod 600), or in the environment as %s",
			e.URL, e.Err, CredentialsEnv)
	}
	return fmt.Sprintf("hub URL %s: %v", e.URL, e.Err)
}

func (e *URLError) Unwrap() error { return e.Err }

// CheckArgv refuses hub URLs that carry credentials, as they came on a
// command line. Its error shows the URLs with their passwords hidden, and
// says where the credentials go instead.
func CheckArgv(urls string) error {
	for _, s := range strings.Split(urls, ",") {
		s = strings.TrimSpace(s)
		if !strings.Contains(s, "://") {
			s = "nats://" + s // as nats.Connect reads it
		}
		u, err := url.Parse(s)
		if err != nil {
			return &URLError{URL: Redact(s), Err: ErrNotURL}
		}
		if u.User != nil || strings.Contains(u.Host, "@") {
			return &URLError{URL: Redact(s), Err: ErrCredentialsInArgv}
		}
	}
	return nil
}

// Credentials say how a machine signs in to a hub: File, else Env (the
// value of CredentialsEnv), else not at all. Either holds "user:password",
// or a token; a File may also be a NATS .creds file (a user JWT and its
// seed). Nothing of them is ever printed.
type Credentials struct {
	File string
	Env  string
}

// options are the nats options that sign in with c.
func (c Credentials) options() ([]nats.Option, error) {
	secret, from := c.Env, CredentialsEnv
	if c.File != "" {
		from = "the hub credentials file " + c.File
		st, err := os.Stat(c.File)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", from, err)
		}
		if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("%s: other users may read it (mode %04o): chmod 600 it", from, st.Mode().Perm())
		}
		b, err := os.ReadFile(c.File)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", from, err)
		}
		if strings.Contains(string(b), "BEGIN NATS USER JWT") {
			return []nats.Option{nats.UserCredentials(c.File)}, nil
		}
		secret = string(b)
	}
	secret, _, _ = strings.Cut(secret, "\n")
	secret = strings.TrimSpace(secret)
	switch {
	case secret == "" && c.File != "":
		return nil, fmt.Errorf("%s: empty; want user:password (or a token) on its first line", from)
	case secret == "":
		return nil, nil
	}
	if user, password, ok := strings.Cut(secret, ":"); ok {
		return []nats.Option{nats.UserInfo(user, password)}, nil
	}
	return []nats.Option{nats.Token(secret)}, nil
}
