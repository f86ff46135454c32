package embedded

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
)

const testMachine = "m_test"

func startServer(t *testing.T, mod func(*Config)) *Server {
	t.Helper()
	cfg := Config{StoreDir: t.TempDir(), MachineID: testMachine}
	if mod != nil {
		mod(&cfg)
	}
	s, err := Start(cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// client is a connection that records the asynchronous errors the server
// sends it, which is how NATS reports a permission violation.
type client struct {
	*nats.Conn
	errs chan error
}

func connect(t *testing.T, url string, opts ...nats.Option) *client {
	t.Helper()
	c := &client{errs: make(chan error, 16)}
	opts = append(opts, nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case c.errs <- err:
		default:
		}
	}))
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(nc.Close)
	c.Conn = nc
	return c
}

func (c *client) wantViolation(t *testing.T, what string) {
	t.Helper()
	select {
	case err := <-c.errs:
		if !errors.Is(err, nats.ErrPermissionViolation) {
			t.Fatalf("%s: got error %v; want a permissions violation", what, err)
		}
	case <-time.After(2 * time.Second):
		t.Fatalf("%s: was allowed; want a permissions violation", what)
	}
}

func (c *client) wantNoViolation(t *testing.T, what string) {
	t.Helper()
	if err := c.Flush(); err != nil {
		t.Fatalf("%s: flush: %v", what, err)
	}
	select {
	case err := <-c.errs:
		t.Fatalf("%s: got %v; want it allowed", what, err)
	case <-time.After(50 * time.Millisecond):
	}
}

func daemonConn(t *testing.T, s *Server) *nats.Conn {
	t.Helper()
	nc, err := s.ConnectInProcess("test-daemon")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func TestNoAnonymousOrWrongPassword(t *testing.T) {
	t.Parallel() // a refused in-process connection takes the server 10 s to close
	s := startServer(t, nil)
	cases := []struct {
		name string
		opts []nats.Option
	}{
		{"anonymous", nil},
		{"wrong password", []nats.Option{nats.UserInfo(string(RoleCLI), "not-the-password")}},
		{"unknown user", []nats.Option{nats.UserInfo("root", s.Password(RoleCLI))}},
		// Each role has one way in: the daemon's secret is useless over TCP,
		// and the extension's is useless outside the WebSocket.
		{"daemon over tcp", []nats.Option{nats.UserInfo(string(RoleDaemon), s.Password(RoleDaemon))}},
		{"extension over tcp", []nats.Option{nats.UserInfo(string(RoleExtension), s.Password(RoleExtension))}},
		// A CLI connection claims an inbox of its own, or is not let in.
		{"cli without its own inbox", []nats.Option{nats.UserInfo(string(RoleCLI), s.Password(RoleCLI))}},
		{"cli claiming the shared inbox", []nats.Option{nats.UserInfo(string(RoleCLI), s.Password(RoleCLI)), nats.Name(CLINamePrefix + "_INBOX")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nc, err := nats.Connect(s.ClientURL(), append(tc.opts, nats.NoReconnect())...)
			if err == nil {
				nc.Close()
				t.Fatal("connected; want an authorization error")
			}
			if !errors.Is(err, nats.ErrAuthorization) && !strings.Contains(strings.ToLower(err.Error()), "authorization") {
				t.Fatalf("Connect = %v; want an authorization error", err)
			}
		})
	}
	t.Run("cli in-process", func(t *testing.T) {
		nc, err := nats.Connect("", append(CLIOptions(s.Password(RoleCLI)), nats.InProcessServer(s.NATS()), nats.Timeout(time.Second))...)
		if err == nil {
			nc.Close()
			t.Fatal("connected; want an authorization error")
		}
	})
}

func TestClientListensOnLoopbackOnly(t *testing.T) {
	s := startServer(t, nil)
	for _, u := range []string{s.ClientURL(), s.WebSocketURL()} {
		if !strings.Contains(u, "://127.0.0.1:") {
			t.Errorf("listener %s; want 127.0.0.1 only", u)
		}
	}
	if got := s.LeafnodeAddr(); got != "" {
		t.Errorf("LeafnodeAddr() = %q; want the platform listener off by default", got)
	}
}

func TestDaemonPermissions(t *testing.T) {
	s := startServer(t, nil)
	c := &client{errs: make(chan error, 16)}
	nc, err := s.ConnectInProcess("daemon", nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { c.errs <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	c.Conn = nc

	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "T", Subjects: []string{"t.>"}}); err != nil {
		t.Fatalf("daemon creates a stream: %v", err)
	}
	if _, err := js.Publish(ctx, "t.1", []byte("x")); err != nil {
		t.Fatalf("daemon publishes to its stream: %v", err)
	}
	sub, err := nc.SubscribeSync(events.ExtensionSubjectPrefix + ".steps")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	c.wantNoViolation(t, "daemon subscribes to the extension's subject")

	if err := nc.Publish(events.ExtensionSubjectPrefix+".steps", []byte("forged")); err != nil {
		t.Fatal(err)
	}
	c.wantViolation(t, "daemon publishes on the extension's subject")
}

func TestCLIPermissions(t *testing.T) {
	s := startServer(t, nil)
	d := daemonConn(t, s)
	djs, _ := jetstream.New(d)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := djs.CreateStream(ctx, jetstream.StreamConfig{Name: "RUNS", Subjects: []string{"run.>"}}); err != nil {
		t.Fatal(err)
	}
	ops, err := d.Subscribe("shim."+testMachine+".ops", func(m *nats.Msg) { _ = m.Respond([]byte("pong")) })
	if err != nil {
		t.Fatal(err)
	}
	defer ops.Unsubscribe()
	d.Flush()

	cli := connect(t, s.ClientURL(), CLIOptions(s.Password(RoleCLI))...)
	if m, err := cli.Request("shim."+testMachine+".ops", []byte("ping"), 2*time.Second); err != nil || string(m.Data) != "pong" {
		t.Fatalf("cli request on ops = %v, %v; want pong", m, err)
	}
	js, _ := jetstream.New(cli.Conn)
	if _, err := js.Publish(ctx, "run.r1.row.1.planned", []byte("x")); err != nil {
		t.Fatalf("cli publishes a replay event: %v", err)
	}
	st, err := js.Stream(ctx, "RUNS")
	if err != nil {
		t.Fatalf("cli reads stream info: %v", err)
	}
	if msg, err := st.GetMsg(ctx, 1); err != nil || string(msg.Data) != "x" {
		t.Fatalf("cli reads message 1 = %v, %v", msg, err)
	}
	live, err := cli.SubscribeSync("rec.r1.live")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Unsubscribe()
	cli.wantNoViolation(t, "cli follows a live stream")

	cli.Publish("capture.r1", []byte("raw"))
	cli.wantViolation(t, "cli publishes raw capture")
	cli.Publish(events.ExtensionSubjectPrefix+".steps", []byte("forged"))
	cli.wantViolation(t, "cli publishes as the extension")
	cli.SubscribeSync("capture.>")
	cli.wantViolation(t, "cli subscribes to raw capture")
	// Each CLI connection reads its own replies only: not the shared
	// inbox space, not another CLI's inbox.
	other := connect(t, s.ClientURL(), CLIOptions(s.Password(RoleCLI))...)
	for _, subject := range []string{"_INBOX.>", "_INBOX_cli_>", ">", cli.Opts.InboxPrefix + ".>"} {
		other.SubscribeSync(subject)
		other.wantViolation(t, "a second cli subscribes to "+subject)
	}

	short, cancelShort := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancelShort()
	if err := js.DeleteStream(short, "RUNS"); err == nil {
		t.Fatal("cli deleted a stream; want refused")
	}
	cli.wantViolation(t, "cli deletes a stream")
	if _, err := djs.Stream(ctx, "RUNS"); err != nil {
		t.Fatalf("stream gone after the cli's refused delete: %v", err)
	}
}
