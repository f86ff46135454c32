// Package embedded runs the shim's NATS server in-process: a JetStream file
// store under the data dir, a TCP listener on 127.0.0.1 for the local CLI, a
// WebSocket listener on 127.0.0.1 for the browser extension, and, only when
// configured, a leafnode link for the platform. Every client is a user with
// least-privilege permissions; there is no anonymous access.
package embedded

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"golang.org/x/crypto/bcrypt"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/extension"
)

// ErrNotReady is returned when the server does not accept connections in time.
var ErrNotReady = errors.New("embedded nats server not ready")

// Config says how to run the embedded server. The zero value of every field
// but StoreDir and MachineID has a sensible default.
type Config struct {
	// StoreDir holds the JetStream file store.
	StoreDir string
	// MachineID names this shim in subjects (shim.<machine_id>.ops).
	MachineID string
	// Passwords holds a secret per role; a role without one gets a random
	// secret for this run only.
	Passwords map[Role]string
	// ClientPort is the CLI's TCP port on 127.0.0.1; 0 picks a free one.
	ClientPort int
	// WebSocketPort is the extension's port on 127.0.0.1; 0 picks a free one.
	WebSocketPort int
	// ExtensionOrigins are the only Origin headers the WebSocket listener
	// accepts, such as "chrome-extension://<id>". Empty means extension.Origin.
	ExtensionOrigins []string
	// Platform is the platform's way in; off unless configured.
	Platform PlatformConfig
	// ReadyTimeout bounds start-up; 0 means 5 seconds.
	ReadyTimeout time.Duration
	// Logger receives the server's notices and errors; nil discards them.
	Logger *slog.Logger
}

// PlatformConfig is how the remote platform reaches the shim. Either way the
// platform's link is bound to its own account, which sees only the ops
// service. Both are off by default.
type PlatformConfig struct {
	// RemoteURL, when set, makes the shim connect out as a leafnode to the
	// platform's NATS (nats:// or tls://), so the person's machine opens no port.
	RemoteURL string
	// RemoteCredentials is the path of a .creds file for RemoteURL, if it needs one.
	RemoteCredentials string
	// ListenAddr, when set (host:port), accepts the platform's leafnode
	// connection, authenticated as the platform role.
	ListenAddr string
}

// Server is a running embedded NATS server.
type Server struct {
	ns        *server.Server
	gate      *wsGate
	machineID string
	passwords map[Role]string
	closeOnce sync.Once

	diskMu     sync.Mutex
	storeLimit int64 // the shim account's store limit FollowDisk set last
}

// Start starts the server and returns once it accepts connections and
// JetStream is enabled for the shim's account.
func Start(cfg Config) (*Server, error) {
	if cfg.StoreDir == "" {
		return nil, errors.New("embedded: Config.StoreDir is required")
	}
	if cfg.MachineID == "" {
		return nil, errors.New("embedded: Config.MachineID is required")
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	passwords, err := fillPasswords(cfg.Passwords)
	if err != nil {
		return nil, err
	}
	origins := cfg.ExtensionOrigins
	if len(origins) == 0 {
		origins = []string{extension.Origin}
	}
	gate, err := listenGate(cfg.WebSocketPort, origins, log)
	if err != nil {
		return nil, fmt.Errorf("embedded: %w", err)
	}
	opts, err := buildOptions(cfg, passwords, gate.origin())
	if err != nil {
		gate.close()
		return nil, err
	}
	auth := &authenticator{machineID: cfg.MachineID, passwords: passwords, gate: gate}
	opts.CustomClientAuthentication = auth
	ns, err := server.NewServer(opts)
	if err != nil {
		gate.close()
		return nil, fmt.Errorf("embedded: configure server: %w", err)
	}
	auth.ns = ns
	s := &Server{ns: ns, gate: gate, machineID: cfg.MachineID, passwords: passwords}
	if err := s.start(cfg, log); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Server) start(cfg Config, log *slog.Logger) error {
	ns := s.ns
	ns.SetLoggerV2(slogAdapter{log.With("component", "nats")}, false, false, false)
	ns.Start()
	if err := waitReady(ns, cfg.ReadyTimeout); err != nil {
		return err
	}
	// The server registers copies of the configured accounts, so the ops
	// import and JetStream are wired on the registered ones, after Start.
	// Nobody has credentials to connect before Start returns: the CLI's are
	// written afterwards, and the extension's and platform's are fixed
	// secrets whose users see nothing until these exist.
	shim, err := ns.LookupAccount(AccountShim)
	if err != nil {
		return fmt.Errorf("embedded: %w", err)
	}
	platform, err := ns.LookupAccount(AccountPlatform)
	if err != nil {
		return fmt.Errorf("embedded: %w", err)
	}
	ops := events.OpsSubject(cfg.MachineID)
	// Streamed: a reply too big for one message comes in parts
	// (internal/chunked), and every part must cross into the platform's account.
	if err := shim.AddServiceExportWithResponse(ops, server.Streamed, []*server.Account{platform}); err != nil {
		return fmt.Errorf("embedded: export ops service: %w", err)
	}
	if err := platform.AddServiceImport(shim, ops, ops); err != nil {
		return fmt.Errorf("embedded: import ops service: %w", err)
	}
	if err := shim.EnableJetStream(nil, nil); err != nil {
		return fmt.Errorf("embedded: enable jetstream for %s: %w", AccountShim, err)
	}
	s.gate.serve(fmt.Sprintf("127.0.0.1:%d", s.varz().Websocket.Port))
	return nil
}

func buildOptions(cfg Config, passwords map[Role]string, gateOrigin string) (*server.Options, error) {
	shim := server.NewAccount(AccountShim)
	platform := server.NewAccount(AccountPlatform)
	hashes, err := hashPasswords(passwords)
	if err != nil {
		return nil, err
	}
	opts := &server.Options{
		ServerName:             "reprise-" + cfg.MachineID,
		Host:                   "127.0.0.1",
		Port:                   portOrRandom(cfg.ClientPort),
		NoSigs:                 true,
		JetStream:              true,
		StoreDir:               cfg.StoreDir,
		JetStreamMaxStore:      storeCeiling,
		DisableJetStreamBanner: true,
		Accounts:               []*server.Account{shim, platform},
		Websocket: server.WebsocketOpts{
			Host:           "127.0.0.1",
			Port:           server.RANDOM_PORT,
			NoTLS:          true,
			AllowedOrigins: []string{gateOrigin},
		},
	}
	if p := cfg.Platform; p.RemoteURL != "" {
		u, err := url.Parse(p.RemoteURL)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("embedded: platform remote URL %q: want nats://host:port", p.RemoteURL)
		}
		opts.LeafNode.Remotes = []*server.RemoteLeafOpts{{
			LocalAccount: AccountPlatform,
			URLs:         []*url.URL{u},
			Credentials:  p.RemoteCredentials,
		}}
	}
	if p := cfg.Platform; p.ListenAddr != "" {
		host, port, err := splitHostPort(p.ListenAddr)
		if err != nil {
			return nil, fmt.Errorf("embedded: platform listen address: %w", err)
		}
		opts.LeafNode.Host, opts.LeafNode.Port = host, port
		opts.LeafNode.Users = []*server.User{{
			Username: string(RolePlatform),
			Password: hashes[RolePlatform],
			Account:  platform,
		}}
	}
	return opts, nil
}

func waitReady(ns *server.Server, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	// ReadyForConnections sleeps 25 ms between checks when given longer;
	// polling with a short wait keeps start-up in single-digit milliseconds.
	deadline := time.Now().Add(timeout)
	for !ns.ReadyForConnections(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("%w after %s", ErrNotReady, timeout)
		}
	}
	return nil
}

// ConnectInProcess connects to the server without a socket, as the daemon.
func (s *Server) ConnectInProcess(name string, opts ...nats.Option) (*nats.Conn, error) {
	opts = append([]nats.Option{
		nats.Name(name),
		nats.InProcessServer(s.ns),
		nats.UserInfo(string(RoleDaemon), s.passwords[RoleDaemon]),
	}, opts...)
	nc, err := nats.Connect("", opts...)
	if err != nil {
		return nil, fmt.Errorf("connect in-process as %s: %w", name, err)
	}
	return nc, nil
}

// Password returns role's secret for this run.
func (s *Server) Password(role Role) string { return s.passwords[role] }

// MachineID returns the machine id the server was configured with.
func (s *Server) MachineID() string { return s.machineID }

// ClientURL is the CLI's nats:// URL on 127.0.0.1.
func (s *Server) ClientURL() string { return s.ns.ClientURL() }

// WebSocketURL is the extension's ws:// URL on 127.0.0.1.
func (s *Server) WebSocketURL() string {
	return fmt.Sprintf("ws://127.0.0.1:%d", s.gate.port())
}

// LeafnodeAddr is the platform's listener address, or "" when it is off.
func (s *Server) LeafnodeAddr() string {
	v := s.varz().LeafNode
	if v.Port == 0 {
		return ""
	}
	return net.JoinHostPort(v.Host, fmt.Sprint(v.Port))
}

func (s *Server) varz() *server.Varz {
	v, err := s.ns.Varz(nil)
	if err != nil || v == nil {
		// Varz fails only on a server that is shutting down.
		return &server.Varz{}
	}
	return v
}

// NATS exposes the underlying server for tests and diagnostics.
func (s *Server) NATS() *server.Server { return s.ns }

// Close shuts the server down and waits for it. Close clients first. It is
// safe to call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.gate.close()
		s.ns.Shutdown()
		s.ns.WaitForShutdown()
	})
}

func fillPasswords(given map[Role]string) (map[Role]string, error) {
	out := make(map[Role]string, 4)
	for _, role := range []Role{RoleDaemon, RoleCLI, RoleExtension, RolePlatform} {
		if pw := given[role]; pw != "" {
			out[role] = pw
			continue
		}
		pw, err := NewSecret()
		if err != nil {
			return nil, err
		}
		out[role] = pw
	}
	return out, nil
}

// hashPasswords gives the server bcrypt hashes, so the secrets themselves are
// kept only by the clients that use them. The secrets are 256 random bits, so
// the minimum cost loses nothing and keeps a connect under a millisecond.
func hashPasswords(passwords map[Role]string) (map[Role]string, error) {
	out := make(map[Role]string, len(passwords))
	for role, pw := range passwords {
		h, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.MinCost)
		if err != nil {
			return nil, fmt.Errorf("embedded: hash %s secret: %w", role, err)
		}
		out[role] = string(h)
	}
	return out, nil
}

// NewSecret returns 256 random bits, URL-safe, for a password.
func NewSecret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate secret: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

func portOrRandom(p int) int {
	if p == 0 {
		return server.RANDOM_PORT
	}
	return p
}

func splitHostPort(addr string) (string, int, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := net.LookupPort("tcp", portStr)
	if err != nil {
		return "", 0, err
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}
