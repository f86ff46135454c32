//go:build !windows

package natstest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// electionWithin bounds each wait that may span a leader election after a
// kill: seconds normally, more on a loaded machine.
const electionWithin = 20 * time.Second

// eventually retries fn every pollEvery until it succeeds or within passes,
// returning fn's last error then. A leader election makes JetStream calls
// fail for a while; that is not what these tests are about.
func eventually(within time.Duration, fn func(ctx context.Context) error) error {
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := fn(ctx)
		cancel()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(pollEvery)
	}
}

// publish publishes msgs first..last-1 to t.<i>, each with a message ID so a
// retry of a publish whose ack was lost is not stored twice.
func publish(t *testing.T, js jetstream.JetStream, first, last int) {
	t.Helper()
	for i := first; i < last; i++ {
		err := eventually(electionWithin, func(ctx context.Context) error {
			_, err := js.Publish(ctx, fmt.Sprintf("t.%d", i), []byte("m"), jetstream.WithMsgID(fmt.Sprintf("m%d", i)))
			return err
		})
		if err != nil {
			t.Fatalf("publish t.%d: %v", i, err)
		}
	}
}

// waitMsgs waits until stream name reports want messages. It asks anew
// each time, since the leader that answers may change.
func waitMsgs(t *testing.T, js jetstream.JetStream, name string, want uint64) *jetstream.StreamInfo {
	t.Helper()
	var info *jetstream.StreamInfo
	err := eventually(electionWithin, func(ctx context.Context) error {
		s, err := js.Stream(ctx, name)
		if err != nil {
			return err
		}
		if info, err = s.Info(ctx); err != nil {
			return err
		}
		if info.State.Msgs != want {
			return fmt.Errorf("stream %s holds %d messages; want %d", name, info.State.Msgs, want)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("wait for %d messages: %v", want, err)
	}
	return info
}

func createStreamT(t *testing.T, js jetstream.JetStream) {
	t.Helper()
	// Retried: right after the meta leader is elected, the other peers may
	// not yet be known to it, and an R3 stream needs all three.
	err := eventually(electionWithin, func(ctx context.Context) error {
		_, err := js.CreateStream(ctx, jetstream.StreamConfig{
			Name: "T", Subjects: []string{"t.>"}, Replicas: 3, Storage: jetstream.FileStorage,
		})
		return err
	})
	if err != nil {
		t.Fatalf("create stream T: %v", err)
	}
}

func TestClusterSurvivesANodeKill(t *testing.T) {
	c := StartCluster(t, 3, "hub", "s3cret $pass")
	_, js := c.Connect(t)

	createStreamT(t, js)
	publish(t, js, 0, 50)

	c.Kill(1)
	killed := time.Now()
	publish(t, js, 50, 51)
	t.Logf("first publish after killing n2 took %v", time.Since(killed).Round(time.Millisecond))
	publish(t, js, 51, 100)
	waitMsgs(t, js, "T", 100)

	// An R3 bucket can still be made with a node dead: the meta leader places
	// a replica on it (it is not yet marked offline) and two of three are a
	// quorum. Retried, since the dead node may have been the meta leader;
	// creating a bucket with the same config again is a no-op.
	var kv jetstream.KeyValue
	kvStart := time.Now()
	err := eventually(electionWithin, func(ctx context.Context) error {
		var err error
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "HUB", Replicas: 3})
		return err
	})
	if err != nil {
		t.Fatalf("create KV bucket after the kill: %v", err)
	}
	t.Logf("R3 bucket made %v after asking", time.Since(kvStart).Round(time.Millisecond))

	// The first Create is retried through a possible election; if its ack was
	// lost, the retry sees ErrKeyExists, and the stored value tells whose it is.
	err = eventually(electionWithin, func(ctx context.Context) error {
		_, err := kv.Create(ctx, "k", []byte("first"))
		return err
	})
	if err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
		t.Fatalf("kv.Create(k) first: %v", err)
	}
	var second error
	err = eventually(electionWithin, func(ctx context.Context) error {
		_, second = kv.Create(ctx, "k", []byte("second"))
		if errors.Is(second, jetstream.ErrKeyExists) {
			return nil
		}
		return second
	})
	if err != nil || !errors.Is(second, jetstream.ErrKeyExists) {
		t.Fatalf("kv.Create(k) second = %v; want %v", second, jetstream.ErrKeyExists)
	}
	ctx, cancel := context.WithTimeout(context.Background(), electionWithin)
	defer cancel()
	e, err := kv.Get(ctx, "k")
	if err != nil {
		t.Fatalf("kv.Get(k): %v", err)
	}
	if got := string(e.Value()); got != "first" {
		t.Fatalf("kv.Get(k) = %q; want %q", got, "first")
	}
}

func TestClusterRestartRejoins(t *testing.T) {
	c := StartCluster(t, 3, "hub", "s3cret")
	_, js := c.Connect(t)
	createStreamT(t, js)
	publish(t, js, 0, 20)

	c.Kill(0)
	publish(t, js, 20, 40)
	c.Restart(0)
	restarted := time.Now()

	// n1 rejoins from its own store and catches up on what it missed: every
	// replica current, none offline, and all 40 messages there.
	err := eventually(electionWithin, func(ctx context.Context) error {
		s, err := js.Stream(ctx, "T")
		if err != nil {
			return err
		}
		info, err := s.Info(ctx)
		if err != nil {
			return err
		}
		if info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
			return fmt.Errorf("stream T cluster = %+v; want a leader and 2 replicas", info.Cluster)
		}
		for _, p := range info.Cluster.Replicas {
			if !p.Current || p.Offline {
				return fmt.Errorf("replica %s current=%v offline=%v lag=%d", p.Name, p.Current, p.Offline, p.Lag)
			}
		}
		if info.State.Msgs != 40 {
			return fmt.Errorf("stream T holds %d messages; want 40", info.State.Msgs)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("after restarting n1: %v", err)
	}
	t.Logf("n1 current again %v after Restart returned", time.Since(restarted).Round(time.Millisecond))

	// Only n1's client port: it serves the cluster's streams again.
	nc, err := c.dial(c.URLs()[0])
	if err != nil {
		t.Fatalf("connect to n1: %v", err)
	}
	defer nc.Close()
	n1, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	publish(t, n1, 40, 41)
	waitMsgs(t, n1, "T", 41)
}
