package daemon

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/reprise-dev/reprise/embedded"
)

// BenchmarkStart measures start-to-ready on a warm store: the whole daemon
// (server, stores, status service, credentials file) against the embedded
// NATS server alone on the same store, as the baseline.
func BenchmarkStart(b *testing.B) {
	home := b.TempDir()
	ctx := context.Background()
	warm, err := Start(ctx, Options{Home: home})
	if err != nil {
		b.Fatal(err)
	}
	id := warm.Server().MachineID()
	warm.Close()

	b.Run("nats-server", func(b *testing.B) {
		for b.Loop() {
			s, err := embedded.Start(embedded.Config{StoreDir: filepath.Join(home, "jetstream"), MachineID: id})
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			s.Close()
			b.StartTimer()
		}
	})
	b.Run("daemon", func(b *testing.B) {
		for b.Loop() {
			d, err := Start(ctx, Options{Home: home})
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			d.Close()
			b.StartTimer()
		}
	})
}
