package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/scripted"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// approvedToken asks for consent over the wire and approves it as the
// person at another terminal would.
func approvedToken(t *testing.T, c *ops.Client, cl *client.Consent, req ops.ConsentRequest) ops.ConsentResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan ops.ConsentResult, 1)
	go func() {
		var r ops.ConsentResult
		if err := c.Call(ctx, ops.TypeRequestConsent, req, &r); err != nil {
			t.Errorf("consent request: %v", err)
		}
		done <- r
	}()
	for {
		ps, err := cl.List(ctx)
		if err == nil && len(ps) > 0 {
			if err := cl.Approve(ctx, ps[0].ID, false); err != nil {
				t.Fatal(err)
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatal("no prompt appeared")
		}
		time.Sleep(10 * time.Millisecond)
	}
	r := <-done
	if !r.Approved || r.ConsentToken == "" {
		t.Fatalf("consent result %+v; want approved with a token", r)
	}
	return r
}

// TestStartNeedsExactlyTheApprovedConsent sends every kind of bad token
// through the wire ops to a real daemon: each is CONSENT_REQUIRED, and of 50
// concurrent starts with one good token exactly one wins.
func TestStartNeedsExactlyTheApprovedConsent(t *testing.T) {
	_, nc, c := scriptedDaemon(t)
	cl := client.NewConsent(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	asked := ops.ConsentRequest{Mode: "demonstration", InterpretationRoute: "extract_then_cloud", Channels: []string{"floor", "browser"}}
	good := approvedToken(t, c, cl, asked)
	start := func(mode, route string, channels []string, token string) error {
		var s ops.Started
		return c.Call(ctx, ops.TypeStart, ops.StartRequest{Mode: mode, InterpretationRoute: route, Channels: channels, ConsentToken: token}, &s)
	}
	// Change a signature character that carries only signature bits (the
	// last one also carries base64 padding bits, which a change may not touch).
	i := len(good.ConsentToken) - 10
	flip := byte('A')
	if good.ConsentToken[i] == 'A' {
		flip = 'B'
	}
	forged := good.ConsentToken[:i] + string(flip) + good.ConsentToken[i+1:]
	bad := []struct {
		name               string
		mode, route, token string
		channels           []string
	}{
		{"no token", "demonstration", "extract_then_cloud", "", []string{"floor", "browser"}},
		{"garbage", "demonstration", "extract_then_cloud", "not-a-token", []string{"floor", "browser"}},
		{"forged signature", "demonstration", "extract_then_cloud", forged, []string{"floor", "browser"}},
		{"another mode", "copilot", "extract_then_cloud", good.ConsentToken, []string{"floor", "browser"}},
		{"another route", "demonstration", "screenshots_to_cloud", good.ConsentToken, []string{"floor", "browser"}},
		{"another channel set", "demonstration", "extract_then_cloud", good.ConsentToken, []string{"floor"}},
	}
	for _, tc := range bad {
		err := start(tc.mode, tc.route, tc.channels, tc.token)
		var e *ops.Error
		if !errors.As(err, &e) || e.Code != ops.CodeConsentRequired || strings.Contains(e.Message, good.ConsentToken) {
			t.Errorf("%s: start = %v; want CONSENT_REQUIRED without the token", tc.name, err)
		}
	}

	// The good token, used by 50 at once (channels in another order, same set).
	var wg sync.WaitGroup
	results := make(chan error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Past the in-flight limit the shim answers BUSY; a client
			// retries with the same request id, as the protocol says.
			req := ops.StartRequest{Mode: "demonstration", InterpretationRoute: "extract_then_cloud", Channels: []string{"browser", "floor"}, ConsentToken: good.ConsentToken}
			for {
				var s ops.Started
				err := c.CallID(ctx, fmt.Sprintf("race-%d", i), ops.TypeStart, req, &s)
				var e *ops.Error
				if errors.As(err, &e) && e.Code == ops.CodeBusy {
					time.Sleep(5 * time.Millisecond)
					continue
				}
				results <- err
				return
			}
		}()
	}
	wg.Wait()
	close(results)
	won := 0
	for err := range results {
		var e *ops.Error
		switch {
		case err == nil:
			won++
		case errors.As(err, &e) && e.Code == ops.CodeConsentRequired:
		default:
			t.Errorf("concurrent start: %v; want CONSENT_REQUIRED", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d of 50 concurrent starts with one token won; want exactly 1", won)
	}
	// Reused after the race: still refused.
	var e *ops.Error
	if err := start("demonstration", "extract_then_cloud", []string{"floor", "browser"}, good.ConsentToken); !errors.As(err, &e) || e.Code != ops.CodeConsentRequired {
		t.Fatalf("reused token: %v; want CONSENT_REQUIRED", err)
	}
}

// scriptedDaemon starts a daemon whose capture source plays the form
// fixture, and connects to it as the CLI does.
func scriptedDaemon(t *testing.T) (*Daemon, *nats.Conn, *ops.Client) {
	t.Helper()
	home := t.TempDir()
	src := scripted.New("scripted", "../capture/scripted/testdata/form.json", []string{capture.ChannelFloor, capture.ChannelBrowser}, scripted.Options{})
	d, err := Start(context.Background(), Options{Home: home, ConsentPrompt: PromptCLI, Sources: []capture.Source{src}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	nc, _, err := client.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return d, nc, ops.NewClient(nc, events.OpsSubject(d.Server().MachineID()))
}
