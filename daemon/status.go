package daemon

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/store"
)

// Version is the build's version, set with -ldflags "-X ...daemon.Version=v1.2.3".
var Version = ""

// BuildVersion returns Version, or the module version the binary was built from.
func BuildVersion() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func (d *Daemon) status(ctx context.Context) api.Status {
	st := api.Status{
		MachineID:     d.srv.MachineID(),
		Version:       BuildVersion(),
		PID:           os.Getpid(),
		StartedAt:     d.startedAt.UTC(),
		UptimeSeconds: time.Since(d.startedAt).Seconds(),
		ClientURL:     d.srv.ClientURL(),
		WebSocketURL:  d.srv.WebSocketURL(),
		Platform:      d.platform,
		Keys:          d.keysKind,
	}
	if d.browser != nil {
		st.BrowserConnected, _ = d.browser.Available()
	}
	if d.rec != nil {
		if id, written, lost, ok := d.rec.Progress(); ok {
			st.Recording = &api.RecordingStatus{ID: id, BrowserJoined: d.browser != nil && d.browser.Joined(id), Steps: written, Lost: lost}
		}
		st.Damaged, st.StoreChecked = d.recs.Damaged()
	}
	st.MinFreeBytes = cmp.Or(d.minFree, store.MinFreeBytes)
	if free, err := d.freeBytes(); err == nil {
		st.FreeBytes = free
	}
	for _, cfg := range events.StreamConfigs() {
		s, err := d.js.Stream(ctx, cfg.Name)
		if err != nil {
			d.log.Warn("status: stream info", "stream", cfg.Name, "err", err)
			continue
		}
		info := s.CachedInfo()
		ss := api.StreamStatus{Name: cfg.Name, Messages: info.State.Msgs, Bytes: info.State.Bytes}
		if info.State.Lost != nil {
			ss.Lost = len(info.State.Lost.Msgs)
		}
		st.Streams = append(st.Streams, ss)
	}
	return st
}

// freeBytes is the space free on the disk holding the store. Measuring it
// also lets the store grow into it (embedded.Server.FollowDisk), so space
// freed is usable at once, by a recording starting now.
func (d *Daemon) freeBytes() (uint64, error) {
	free, err := store.FreeBytes(filepath.Join(d.home, "jetstream"))
	if err != nil {
		return 0, err
	}
	if err := d.srv.FollowDisk(free); err != nil {
		d.log.Warn("could not fit the store's limit to the disk", "err", err)
	}
	return free, nil
}

// followDisk fits the store's limit to the disk every diskEvery until the
// daemon closes: a disk filling up refuses writes at once (counted lost)
// before JetStream meets a full disk, and one emptying lets them through.
func (d *Daemon) followDisk() {
	t := time.NewTicker(diskEvery)
	defer t.Stop()
	for {
		if _, err := d.freeBytes(); err != nil {
			d.log.Warn("could not measure the store's disk", "err", err)
		}
		select {
		case <-d.closing.Done():
			return
		case <-t.C:
		}
	}
}

// diskEvery is how often followDisk measures the disk.
const diskEvery = 2 * time.Second

// ServiceName is the daemon's own local service in `nats micro ls`:
// status, pairing and the replay key.
const ServiceName = "reprise-daemon"

// serveLocal answers events.LocalStatus, events.LocalPair and events.LocalReplayKey for
// the local CLI; each takes an empty body or {}.
func (d *Daemon) serveLocal() error {
	key, err := d.replayKey()
	if err != nil {
		return err
	}
	empty := func(what string, reply func(context.Context) ([]byte, error)) func(context.Context, []byte) ([]byte, error) {
		return func(ctx context.Context, body []byte) ([]byte, error) {
			if err := ops.DecodeLocal(what, body, &struct{}{}); err != nil {
				return nil, err
			}
			return reply(ctx)
		}
	}
	_, err = ops.ServeLocal(d.nc, ops.LocalService{
		Name: ServiceName, Description: "the daemon's status, the extension's pairing and the replay key, for the local CLI",
		Endpoints: []ops.Endpoint{
			{Name: "status", Subject: events.LocalStatus, Timeout: 2 * time.Second, Handle: empty("status", func(ctx context.Context) ([]byte, error) {
				return json.Marshal(d.status(ctx))
			})},
			{Name: "pair", Subject: events.LocalPair, Handle: empty("pairing", func(context.Context) ([]byte, error) {
				return json.Marshal(d.pairing())
			})},
			{Name: "replay-key", Subject: events.LocalReplayKey, Handle: empty("replay key", func(context.Context) ([]byte, error) {
				return key, nil
			})},
		},
		Logger: d.log,
	})
	return err
}
