package embedded

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/extension"
)

func wsHeaders(origin string) nats.Option {
	return nats.WebSocketConnectionHeaders(http.Header{"Origin": []string{origin}})
}

func TestExtensionOverWebSocket(t *testing.T) {
	s := startServer(t, nil)
	d := daemonConn(t, s)
	steps, err := d.SubscribeSync(events.ExtensionSubjectPrefix + ".steps")
	if err != nil {
		t.Fatal(err)
	}
	d.Flush()

	ext := connect(t, s.WebSocketURL(), wsHeaders(extension.Origin),
		nats.UserInfo(string(RoleExtension), s.Password(RoleExtension)), nats.CustomInboxPrefix(events.ExtensionInboxPrefix))
	if err := ext.Publish(events.ExtensionSubjectPrefix+".steps", []byte("step")); err != nil {
		t.Fatal(err)
	}
	if m, err := steps.NextMsg(2 * time.Second); err != nil || string(m.Data) != "step" {
		t.Fatalf("daemon got %v, %v; want the extension's step", m, err)
	}
	ext.wantNoViolation(t, "extension publishes its capture subject")

	ext.Publish("capture.r1", []byte("raw"))
	ext.wantViolation(t, "extension publishes to CAPTURE directly")
	ext.Publish("shim."+testMachine+".ops", []byte("{}"))
	ext.wantViolation(t, "extension sends a wire op")
	ext.SubscribeSync("rec.>")
	ext.wantViolation(t, "extension subscribes to recordings")
	ext.SubscribeSync("_INBOX.>")
	ext.wantViolation(t, "extension subscribes to the CLI's inboxes")
	if _, err := ext.Request("$JS.API.INFO", nil, 300*time.Millisecond); err == nil {
		t.Fatal("extension reached the JetStream API")
	}
	ext.wantViolation(t, "extension calls the JetStream API")

	// The extension's credentials are useless with the CLI's user name, and
	// the CLI's are refused on the WebSocket.
	if nc, err := nats.Connect(s.WebSocketURL(), append(CLIOptions(s.Password(RoleCLI)), wsHeaders(extension.Origin), nats.NoReconnect())...); err == nil {
		nc.Close()
		t.Fatal("cli credentials accepted on the WebSocket")
	}
}

func TestWebSocketOrigin(t *testing.T) {
	const other = "chrome-extension://aaaabbbbccccddddeeeeffffgggghhhh"
	s := startServer(t, func(c *Config) { c.ExtensionOrigins = []string{extension.Origin, other} })
	for _, origin := range []string{extension.Origin, other} {
		nc, err := nats.Connect(s.WebSocketURL(), wsHeaders(origin), nats.UserInfo(string(RoleExtension), s.Password(RoleExtension)))
		if err != nil {
			t.Fatalf("origin %s refused: %v", origin, err)
		}
		nc.Close()
	}
	for _, origin := range []string{"", "https://evil.example", "chrome-extension://" + strings.Repeat("a", 32), "null", extension.Origin + ".evil",
		strings.ToUpper(extension.Origin), extension.Origin + "/", extension.Origin + "\r\nOrigin: https://evil.example",
		"https://evil.example\r\nOrigin: " + extension.Origin} {
		if code := upgradeStatus(t, strings.TrimPrefix(s.WebSocketURL(), "ws://"), origin); code != http.StatusForbidden {
			t.Errorf("upgrade with Origin %q answered %d; want 403", origin, code)
		}
		nc, err := nats.Connect(s.WebSocketURL(), wsHeaders(origin), nats.NoReconnect(),
			nats.UserInfo(string(RoleExtension), s.Password(RoleExtension)))
		if err == nil {
			nc.Close()
			t.Errorf("nats client with Origin %q connected; want refused", origin)
		}
	}
	// A page that skips the gate and dials NATS's own WebSocket port is
	// refused there: NATS accepts only the gate's Origin.
	inner := fmt.Sprintf("127.0.0.1:%d", s.varz().Websocket.Port)
	if code := upgradeStatus(t, inner, "https://evil.example"); code != http.StatusForbidden {
		t.Errorf("direct upgrade to NATS answered %d; want 403", code)
	}
	if code := rawRequest(t, strings.TrimPrefix(s.WebSocketURL(), "ws://"), "garbage\r\n\r\n"); code != http.StatusBadRequest {
		t.Errorf("malformed upgrade answered %d; want 400", code)
	}
}

func upgradeStatus(t *testing.T, addr, origin string) int {
	t.Helper()
	req := "GET / HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
	if origin != "" {
		req += "Origin: " + origin + "\r\n"
	}
	return rawRequest(t, addr, req+"\r\n")
}

func rawRequest(t *testing.T, addr, req string) int {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprint(c, req)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	return resp.StatusCode
}
