package embedded

import (
	"errors"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
)

// startHub runs a plain NATS server standing in for the platform's, with a
// leafnode listener when acceptLeaf is set.
func startHub(t *testing.T, acceptLeaf bool, remote string) *server.Server {
	t.Helper()
	opts := &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true}
	if acceptLeaf {
		opts.LeafNode.Host, opts.LeafNode.Port = "127.0.0.1", server.RANDOM_PORT
	}
	if remote != "" {
		opts.LeafNode.Remotes = []*server.RemoteLeafOpts{{URLs: []*url.URL{mustURL(t, remote)}}}
	}
	hub, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	hub.Start()
	if !hub.ReadyForConnections(5 * time.Second) {
		t.Fatal("hub not ready")
	}
	t.Cleanup(func() { hub.Shutdown(); hub.WaitForShutdown() })
	return hub
}

func waitLeaf(t *testing.T, s *server.Server) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for s.NumLeafNodes() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("leafnode link not up")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkPlatform asserts what the platform's side of the link can and
// cannot do: it reaches the ops service and nothing else of the shim's.
func checkPlatform(t *testing.T, s *Server, hubURL string) {
	t.Helper()
	d := daemonConn(t, s)
	ops := "shim." + testMachine + ".ops"
	sub, err := d.Subscribe(ops, func(m *nats.Msg) { _ = m.Respond([]byte("pong")) })
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	leaked, err := d.SubscribeSync(">")
	if err != nil {
		t.Fatal(err)
	}
	d.Flush()

	p, err := nats.Connect(hubURL)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var reply *nats.Msg
	deadline := time.Now().Add(10 * time.Second)
	for { // interest in the ops service crosses the link shortly after it is up
		reply, err = p.Request(ops, []byte("ping"), 500*time.Millisecond)
		if err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil || string(reply.Data) != "pong" {
		t.Fatalf("platform request on ops = %v, %v; want pong", reply, err)
	}

	live, err := p.SubscribeSync("rec.>")
	if err != nil {
		t.Fatal(err)
	}
	p.Flush()
	for _, subj := range []string{"capture.r1", events.ExtensionSubjectPrefix + ".steps", events.LocalSubjectPrefix + ".consent.approve", "run.r1.row.1.step"} {
		if err := p.Publish(subj, []byte("from platform")); err != nil {
			t.Fatal(err)
		}
	}
	p.Flush()
	if err := d.Publish("rec.r1.live", []byte("step")); err != nil {
		t.Fatal(err)
	}
	d.Flush()
	if m, err := live.NextMsg(300 * time.Millisecond); err == nil {
		t.Errorf("platform saw %s from the shim", m.Subject)
	}
	for {
		m, err := leaked.NextMsg(300 * time.Millisecond)
		if err != nil {
			break
		}
		if m.Subject != ops && m.Subject != "rec.r1.live" && !isInternal(m.Subject) {
			t.Errorf("platform's publish on %s reached the shim's account", m.Subject)
		}
	}
	if _, err := p.Request("$JS.API.INFO", nil, 500*time.Millisecond); err == nil {
		t.Error("platform reached the shim's JetStream API")
	} else if !errors.Is(err, nats.ErrNoResponders) && !errors.Is(err, nats.ErrTimeout) {
		t.Errorf("platform JetStream request: %v", err)
	}
}

func isInternal(subj string) bool { return len(subj) > 0 && (subj[0] == '$' || subj[0] == '_') }

func TestPlatformLeafnodeOut(t *testing.T) {
	hub := startHub(t, true, "")
	v, err := hub.Varz(nil)
	if err != nil {
		t.Fatal(err)
	}
	leafURL := fmt.Sprintf("nats://127.0.0.1:%d", v.LeafNode.Port)
	s := startServer(t, func(c *Config) { c.Platform.RemoteURL = leafURL })
	waitLeaf(t, hub)
	checkPlatform(t, s, hub.ClientURL())
}

func TestPlatformListener(t *testing.T) {
	s := startServer(t, func(c *Config) {
		c.Platform.ListenAddr = "127.0.0.1:0"
		c.Passwords = map[Role]string{RolePlatform: "platform-secret"}
	})
	addr := s.LeafnodeAddr()
	if addr == "" {
		t.Fatal("platform listener not started")
	}
	hub := startHub(t, false, "nats://platform:platform-secret@"+addr)
	waitLeaf(t, hub)
	checkPlatform(t, s, hub.ClientURL())

	// A leafnode with the wrong secret never links.
	bad := startHub(t, false, "nats://platform:wrong@"+addr)
	time.Sleep(500 * time.Millisecond)
	if n := bad.NumLeafNodes(); n != 0 {
		t.Fatalf("leafnode with a wrong password linked (%d links)", n)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
