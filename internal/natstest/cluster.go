// Windows is left out: the pinned nats-server in .tools/bin is a Linux or
// macOS binary, each server runs under /bin/sh (see lifeline), and the hub
// tests that use this only run on Linux and macOS.

//go:build !windows

package natstest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

const (
	// pollEvery and readyWithin bound every wait on the cluster: conditions
	// are polled, never slept for, so a loaded machine only makes them slower.
	pollEvery   = 50 * time.Millisecond
	readyWithin = 30 * time.Second
	// startAttempts covers a free port taken by someone else between
	// freePorts closing it and nats-server binding it.
	startAttempts = 3
	logTailLines  = 40
)

// Cluster is a real JetStream cluster of nats-server processes, for tests of
// what a single embedded server cannot show: replicas, leader elections and
// nodes that die. Its methods call tb.Fatal and so belong on the test's
// goroutine; it is not safe for concurrent use.
type Cluster struct {
	tb             testing.TB
	bin            string
	user, password string
	nodes          []*node
}

// node is one nats-server: its config and store outlive its process, so
// Restart brings back the same server with the same state.
type node struct {
	name        string
	dir         string // temp dir: config, log and store
	clientPort  int
	clusterPort int
	cmd         *exec.Cmd      // sh running lifeline; nil when not running
	stdin       io.WriteCloser // closing it kills the server
	exited      chan struct{}  // closed when cmd has been waited for
}

// StartCluster starts n nats-server processes clustered as "hub" with
// JetStream, accepting only user/password, and returns once JetStream
// can place a stream on every node. It skips the test when nats-server is
// not installed. Every process is killed when the test ends.
func StartCluster(tb testing.TB, n int, user, password string) *Cluster {
	tb.Helper()
	if n < 1 {
		tb.Fatalf("StartCluster(%d): want at least one node", n)
	}
	bin, err := serverBinary()
	if err != nil {
		tb.Skipf("SKIP: cluster tests need a real nats-server (%v); scripts/deps installs it in .tools/bin", err)
	}
	c := &Cluster{tb: tb, bin: bin, user: user, password: password}
	for i := range n {
		// TempDir before the kill cleanup below, so the dirs are removed only
		// after the processes writing to them are dead (cleanups run LIFO).
		c.nodes = append(c.nodes, &node{name: "n" + strconv.Itoa(i+1), dir: tb.TempDir()})
	}
	tb.Cleanup(c.cleanup)

	for attempt := 1; ; attempt++ {
		err := c.startAll()
		if err == nil {
			break
		}
		c.killAll()
		if !errors.Is(err, errPortClash) || attempt == startAttempts {
			tb.Fatalf("start nats-server cluster: %v", err)
		}
		tb.Logf("start nats-server cluster (attempt %d): %v; retrying on new ports", attempt, err)
	}
	if err := c.waitJetStream(); err != nil {
		tb.Fatalf("nats-server cluster: %v", err)
	}
	return c
}

// URLs returns each node's client URL, without credentials.
func (c *Cluster) URLs() []string {
	urls := make([]string, len(c.nodes))
	for i, nd := range c.nodes {
		urls[i] = nd.clientURL()
	}
	return urls
}

// URL returns all client URLs comma-joined, the form nats.Connect takes for
// a server pool.
func (c *Cluster) URL() string { return strings.Join(c.URLs(), ",") }

// Kill sends SIGKILL to node i (0-based), the way a machine dies, with no
// chance to step down or flush, and waits for the process to exit.
func (c *Cluster) Kill(i int) {
	c.tb.Helper()
	nd := c.node(i)
	if nd.cmd == nil {
		c.tb.Fatalf("kill %s: not running", nd.name)
	}
	nd.kill()
}

// Restart starts node i again on the same ports, config and store, and
// returns once it accepts client connections. Catching up on its streams
// happens after that; tests wait for it on their own condition.
func (c *Cluster) Restart(i int) {
	c.tb.Helper()
	nd := c.node(i)
	if nd.cmd != nil {
		c.tb.Fatalf("restart %s: still running; Kill it first", nd.name)
	}
	if err := c.start(nd); err != nil {
		c.tb.Fatalf("restart: %v", err)
	}
	if err := c.waitClient(nd); err != nil {
		c.tb.Fatalf("restart: %v", err)
	}
}

// Connect connects to the whole cluster as the cluster's user, reconnecting
// forever so a test survives the nodes it kills. The connection is closed
// when the test ends, before the processes are killed.
func (c *Cluster) Connect(tb testing.TB) (*nats.Conn, jetstream.JetStream) {
	tb.Helper()
	nc, err := c.dial(c.URL(), nats.Name(tb.Name()), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		tb.Fatalf("connect to cluster %s: %v", c.URL(), err)
	}
	tb.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatalf("jetstream: %v", err)
	}
	return nc, js
}

func (c *Cluster) node(i int) *node {
	c.tb.Helper()
	if i < 0 || i >= len(c.nodes) {
		c.tb.Fatalf("node %d: the cluster has nodes 0..%d", i, len(c.nodes)-1)
	}
	return c.nodes[i]
}

func (c *Cluster) dial(url string, opts ...nats.Option) (*nats.Conn, error) {
	opts = append([]nats.Option{nats.UserInfo(c.user, c.password)}, opts...)
	return nats.Connect(url, opts...)
}

// errPortClash marks a start that failed because a port picked as free was
// taken before the server bound it.
var errPortClash = errors.New("port already in use")

// startAll picks fresh ports for every node, since each config lists every
// node's route, then starts them all and waits for their client ports.
func (c *Cluster) startAll() error {
	ports, err := freePorts(2 * len(c.nodes))
	if err != nil {
		return err
	}
	routes := make([]string, len(c.nodes))
	for i, nd := range c.nodes {
		nd.clientPort, nd.clusterPort = ports[2*i], ports[2*i+1]
		routes[i] = fmt.Sprintf("nats-route://127.0.0.1:%d", nd.clusterPort)
	}
	for _, nd := range c.nodes {
		// A failed attempt may have left state for the old ports behind.
		if err := os.RemoveAll(nd.storeDir()); err != nil {
			return fmt.Errorf("clear %s store: %w", nd.name, err)
		}
		if err := os.WriteFile(nd.configPath(), c.config(nd, routes), 0o600); err != nil {
			return fmt.Errorf("write %s config: %w", nd.name, err)
		}
		if err := c.start(nd); err != nil {
			return err
		}
	}
	for _, nd := range c.nodes {
		if err := c.waitClient(nd); err != nil {
			return err
		}
	}
	return nil
}

// config renders nd's nats-server config. Strings are quoted so a password
// with '$' or spaces is not read as a variable or cut short.
func (c *Cluster) config(nd *node, routes []string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "server_name: %s\n", nd.name)
	fmt.Fprintf(&b, "listen: 127.0.0.1:%d\n", nd.clientPort)
	fmt.Fprintf(&b, "jetstream {\n  store_dir: %q\n  max_mem_store: 64MB\n  max_file_store: 1GB\n}\n", nd.storeDir())
	fmt.Fprintf(&b, "cluster {\n  name: hub\n  listen: 127.0.0.1:%d\n  routes: [\n", nd.clusterPort)
	for _, r := range routes {
		fmt.Fprintf(&b, "    %s\n", r)
	}
	b.WriteString("  ]\n}\n")
	fmt.Fprintf(&b, "authorization {\n  users: [\n    { user: %q, password: %q }\n  ]\n}\n", c.user, c.password)
	return b.Bytes()
}

// lifeline runs nats-server ("$0" "$@") under sh and SIGKILLs it when its
// stdin, a pipe from the test binary, closes: on Kill, or when the test
// binary dies without running its cleanups (a -timeout panic, a signal),
// so no server outlives it. A child's own SIGKILL would need per-OS code
// (Linux's Pdeathsig); this works wherever sh does. The watcher reads a dup
// of stdin because sh gives background jobs /dev/null as stdin.
const lifeline = `exec 3<&0
"$0" "$@" 3<&- &
server=$!
{ read -r line <&3; kill -9 "$server" 2>/dev/null; } &
watcher=$!
exec 3<&-
wait "$server"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"
`

// start runs nd's server with its output appended to its log, so the log
// of a restarted node still shows what happened before it was killed.
func (c *Cluster) start(nd *node) error {
	log, err := os.OpenFile(nd.logPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open %s log: %w", nd.name, err)
	}
	fmt.Fprintf(log, "=== natstest: starting %s at %s\n", nd.name, time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command("/bin/sh", "-c", lifeline, c.bin, "-c", nd.configPath())
	cmd.Stdout, cmd.Stderr = log, log
	stdin, err := cmd.StdinPipe()
	if err != nil {
		log.Close()
		return fmt.Errorf("start %s: %w", nd.name, err)
	}
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("start %s: %w", nd.name, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait() // a killed server's exit status says nothing new
		log.Close()
		close(exited)
	}()
	nd.cmd, nd.stdin, nd.exited = cmd, stdin, exited
	return nil
}

// waitClient waits until nd accepts an authenticated client connection,
// failing early if its process exits.
func (c *Cluster) waitClient(nd *node) error {
	deadline := time.Now().Add(readyWithin)
	var lastErr error
	for {
		select {
		case <-nd.exited:
			err := fmt.Errorf("%s exited before accepting clients; log tail:\n%s", nd.name, nd.logTail())
			if bytes.Contains(nd.log(), []byte("address already in use")) {
				err = fmt.Errorf("%w: %w", errPortClash, err)
			}
			nd.cmd = nil
			return err
		default:
		}
		nc, err := c.dial(nd.clientURL(), nats.Timeout(time.Second), nats.NoReconnect())
		if err == nil {
			nc.Close()
			return nil
		}
		lastErr = err
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not accepting clients after %v: %w", nd.name, readyWithin, lastErr)
		}
		time.Sleep(pollEvery)
	}
}

// waitJetStream waits until the cluster places a stream on every node, which
// needs a meta leader that has heard from every peer; accepting clients
// does not mean that.
func (c *Cluster) waitJetStream() error {
	nc, err := c.dial(c.URL(), nats.MaxReconnects(-1), nats.ReconnectWait(pollEvery))
	if err != nil {
		return fmt.Errorf("connect to %s: %w", c.URL(), err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("jetstream: %w", err)
	}
	deadline := time.Now().Add(readyWithin)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := c.placeProbe(ctx, js)
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("JetStream cannot place a stream on all %d nodes after %v: %w", len(c.nodes), readyWithin, err)
		}
		time.Sleep(pollEvery)
	}
}

// placeProbe places a stream on every node and deletes it. A meta leader
// answers before it has heard from every peer, and a stream placed on all
// of them then fails with "no suitable peers for placement" (seen under
// make test's load): a test's first stream must not be the probe.
func (c *Cluster) placeProbe(ctx context.Context, js jetstream.JetStream) error {
	const probe = "NATSTEST_PROBE"
	_, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: probe, Subjects: []string{"natstest.probe"}, Replicas: len(c.nodes), Storage: jetstream.MemoryStorage})
	if err != nil {
		return err
	}
	return js.DeleteStream(ctx, probe)
}

// cleanup kills every process, and on failure shows how each server saw it.
func (c *Cluster) cleanup() {
	c.killAll()
	if !c.tb.Failed() {
		return
	}
	for _, nd := range c.nodes {
		c.tb.Logf("nats-server %s (%s), last %d log lines:\n%s", nd.name, nd.clientURL(), logTailLines, nd.logTail())
	}
}

func (c *Cluster) killAll() {
	for _, nd := range c.nodes {
		if nd.cmd != nil {
			nd.kill()
		}
	}
}

// kill closes nd's lifeline, so its watcher SIGKILLs the server, and waits
// for the wrapper to exit, which it does once the server has: after that
// the log is closed and the ports are free again.
func (nd *node) kill() {
	_ = nd.stdin.Close() // fails only if Wait closed it already
	<-nd.exited
	nd.cmd = nil
}

func (nd *node) clientURL() string  { return fmt.Sprintf("nats://127.0.0.1:%d", nd.clientPort) }
func (nd *node) storeDir() string   { return filepath.Join(nd.dir, "store") }
func (nd *node) configPath() string { return filepath.Join(nd.dir, "nats-server.conf") }
func (nd *node) logPath() string    { return filepath.Join(nd.dir, "nats-server.log") }

func (nd *node) log() []byte {
	b, err := os.ReadFile(nd.logPath())
	if err != nil {
		return []byte(fmt.Sprintf("(read log: %v)", err))
	}
	return b
}

func (nd *node) logTail() string {
	lines := strings.Split(strings.TrimRight(string(nd.log()), "\n"), "\n")
	if len(lines) > logTailLines {
		lines = lines[len(lines)-logTailLines:]
	}
	return strings.Join(lines, "\n")
}

// freePorts returns n distinct ports that were free on 127.0.0.1 a moment
// ago, holding all listeners open together so no port is handed out twice.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// serverBinary prefers the nats-server scripts/deps pins in the repo's
// .tools/bin over whatever is on PATH, so tests run the version go.mod names.
func serverBinary() (string, error) {
	if dir, err := os.Getwd(); err == nil {
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				bin := filepath.Join(dir, ".tools", "bin", "nats-server")
				if _, err := os.Stat(bin); err == nil {
					return bin, nil
				}
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		return "", fmt.Errorf("no nats-server in .tools/bin or on PATH: %w", err)
	}
	return bin, nil
}
