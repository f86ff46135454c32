package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/chrome"
	"github.com/reprise-dev/reprise/computer/script"
	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/recorder"
	"github.com/reprise-dev/reprise/recordings"
	"github.com/reprise-dev/reprise/store"
)

// Options start a daemon.
type Options struct {
	// Home is the data dir; it is created if missing.
	Home string
	// Config is the settings; see LoadConfig.
	Config Config
	// Logger receives the daemon's logs; nil discards them.
	Logger *slog.Logger
	// Script, if set, plays a trajectory file as the capture source instead
	// of this OS's desktop floor (the demo, tests).
	Script *Script
	// Sources, if set, are the capture sources instead of Script's or the
	// floor (tests). The browser channel is always offered.
	Sources []capture.Source
	// ConsentPrompt is PromptAuto (the default) or PromptCLI.
	ConsentPrompt string
	// MaxConcurrent bounds wire ops in flight; 0 means ops.DefaultMaxConcurrent.
	MaxConcurrent int
}

// Daemon is a running shim.
type Daemon struct {
	home      string
	lock      *homeLock
	log       *slog.Logger
	srv       *embedded.Server
	nc        *nats.Conn
	js        jetstream.JetStream
	startedAt time.Time
	platform  string
	ncClosed  chan struct{}
	// closing ends when Close begins: background work stops on it.
	closing     context.Context
	stopClosing context.CancelFunc

	keys       store.KeyStore
	keysKind   string // store.KeyStoreKeychain or store.KeyStoreFile
	keep       int
	minFree    uint64 // bytes; 0 means store.MinFreeBytes
	localModel LocalModelConfig
	promptMode string
	consent    *consentGate
	audit      *auditor
	browser    *chrome.Source
	rec        *recorder.Recorder
	recs       *recordings.Reader // the read model of RECORDINGS and FRAMES
	ops        *ops.Server
	runner     *script.Runner // the desktop scripts' runtime
	closeOnce  sync.Once
}

// Start brings the shim up: data dir, machine id, embedded server, stores,
// status service, and last the CLI's credentials file, so a CLI that finds
// the file finds a daemon ready to answer.
func Start(ctx context.Context, opts Options) (_ *Daemon, err error) {
	started := time.Now()
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := opts.Config.Validate(); err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	// What to record from is settled first: a missing script is said
	// before anything starts.
	if opts.Sources, err = opts.sources(log); err != nil {
		return nil, err
	}
	if err := ensureHome(opts.Home); err != nil {
		return nil, err
	}
	lock, err := lockHome(opts.Home)
	if err != nil {
		return nil, err
	}
	// Keys and store readable by others are made private again, loudly:
	// what was readable may have been read.
	if fixed, err := store.Tighten(opts.Home); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	} else if len(fixed) > 0 {
		log.Warn("the data dir was readable by other users; made it private again (its keys may have been read: consider a new data dir)", "paths", fixed)
	}
	defer func() {
		if err != nil {
			lock.Release()
		}
	}()
	keys, keysKind, err := openKeyStore(opts.Home, log)
	if err != nil {
		return nil, err
	}
	machineID, err := LoadOrCreateMachineID(opts.Home)
	if err != nil {
		return nil, err
	}
	cfg := opts.Config
	passwords, err := stableSecrets(keys)
	if err != nil {
		return nil, err
	}
	ecfg := embedded.Config{
		Passwords:        passwords,
		StoreDir:         filepath.Join(opts.Home, "jetstream"),
		MachineID:        machineID,
		ClientPort:       cfg.ClientPort,
		WebSocketPort:    cfg.WebSocketPort,
		ExtensionOrigins: cfg.ExtensionOrigins,
		Platform: embedded.PlatformConfig{
			RemoteURL:         cfg.Platform.RemoteURL,
			RemoteCredentials: cfg.Platform.RemoteCredentials,
			ListenAddr:        cfg.Platform.Listen,
		},
		Logger: log,
	}
	// The paired extension keeps the WebSocket's URL, so its port is kept
	// across starts unless the settings choose one.
	if ecfg.WebSocketPort == 0 {
		ecfg.WebSocketPort = savedPort(opts.Home)
	}
	srv, err := embedded.Start(ecfg)
	if err != nil && cfg.WebSocketPort == 0 && ecfg.WebSocketPort != 0 {
		log.Warn("the extension's usual port is taken; using another: pair the extension again (reprise extension pair)", "port", ecfg.WebSocketPort, "err", err)
		ecfg.WebSocketPort = 0
		srv, err = embedded.Start(ecfg)
	}
	if err != nil {
		return nil, fmt.Errorf("start event log: %w", err)
	}
	if err := savePort(opts.Home, srv.WebSocketURL()); err != nil {
		log.Warn("could not remember the extension's port", "err", err)
	}
	switch opts.ConsentPrompt {
	case "":
		opts.ConsentPrompt = PromptAuto
	case PromptAuto, PromptCLI:
	default:
		srv.Close()
		return nil, fmt.Errorf("consent prompt %q: want %s or %s", opts.ConsentPrompt, PromptAuto, PromptCLI)
	}
	d := &Daemon{home: opts.Home, lock: lock, log: log, srv: srv, startedAt: started, platform: describePlatform(cfg.Platform, srv),
		promptMode: opts.ConsentPrompt, keep: cfg.KeepRecordings, minFree: uint64(cfg.MinFreeMB) << 20, localModel: cfg.LocalModel, keys: keys, keysKind: keysKind}
	if err := d.init(ctx, opts); err != nil {
		d.Close()
		return nil, err
	}
	log.Info("daemon ready", "machine_id", machineID, "cli", srv.ClientURL(), "websocket", srv.WebSocketURL(),
		"platform", d.platform, "startup", time.Since(started).Round(time.Microsecond))
	return d, nil
}

func (d *Daemon) init(ctx context.Context, opts Options) error {
	d.ncClosed = make(chan struct{})
	d.closing, d.stopClosing = context.WithCancel(context.Background())
	nc, err := d.srv.ConnectInProcess("reprise-daemon", nats.ClosedHandler(func(*nats.Conn) { close(d.ncClosed) }))
	if err != nil {
		return err
	}
	d.nc = nc
	if d.js, err = jetstream.New(nc); err != nil {
		return fmt.Errorf("jetstream: %w", err)
	}
	if err := events.EnsureStores(ctx, d.js); err != nil {
		return err
	}
	go d.followDisk()
	// Before the daemon's consumers start: a stranger's consumer on the
	// work queue would take its steps, or keep its consumer from starting.
	own := map[string][]string{events.StreamCapture: {recorder.RedactConsumer}}
	if err := events.SweepConsumers(ctx, d.js, own, d.log); err != nil {
		d.log.Error("could not check the streams' consumers", "err", err)
	}
	if err := d.startOps(ctx, opts.Sources, opts.MaxConcurrent); err != nil {
		return err
	}
	if err := d.serveLocal(); err != nil {
		return err
	}
	if err := d.writePlatformFile(); err != nil {
		return fmt.Errorf("platform credentials: %w", err)
	}
	return writeClientInfo(d.home, api.ClientInfo{
		URL:          d.srv.ClientURL(),
		User:         string(embedded.RoleCLI),
		Password:     d.srv.Password(embedded.RoleCLI),
		MachineID:    d.srv.MachineID(),
		WebSocketURL: d.srv.WebSocketURL(),
		PID:          os.Getpid(),
	})
}

func describePlatform(p PlatformConfig, srv *embedded.Server) string {
	switch {
	case p.RemoteURL != "":
		return "leafnode out to the platform"
	case p.Listen != "":
		return "listening for the platform's leafnode on " + srv.LeafnodeAddr()
	}
	return "off"
}

// Frame returns a recording's frame image, opened.
func (d *Daemon) Frame(ctx context.Context, recID, ref string) ([]byte, error) {
	return d.recs.Frame(ctx, recID, ref)
}

// Server is the embedded NATS server.
func (d *Daemon) Server() *embedded.Server { return d.srv }

// JetStream is the daemon's own JetStream context.
func (d *Daemon) JetStream() jetstream.JetStream { return d.js }

// Close stops the daemon: the CLI's credentials go first, so no CLI dials a
// daemon on its way out, then the connection, then the server. It is safe to
// call more than once.
func (d *Daemon) Close() {
	d.closeOnce.Do(func() {
		if d.stopClosing != nil {
			d.stopClosing()
		}
		if err := os.Remove(filepath.Join(d.home, api.ClientFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
			d.log.Warn("remove cli credentials", "err", err)
		}
		if d.ops != nil {
			d.ops.Close()
		}
		if d.rec != nil {
			d.rec.Close()
		}
		if d.browser != nil {
			d.browser.Close()
		}
		if d.runner != nil {
			_ = d.runner.Close()
		}
		d.consent.close()
		d.audit.close()
		if d.nc != nil {
			// Drain lets in-flight handlers answer; the server must outlive it.
			if err := d.nc.Drain(); err == nil {
				select {
				case <-d.ncClosed:
				case <-time.After(5 * time.Second):
					d.log.Warn("daemon connection did not drain in 5 s")
				}
			}
			d.nc.Close()
		}
		d.srv.Close()
		d.lock.Release()
		d.log.Info("daemon stopped")
	})
}
