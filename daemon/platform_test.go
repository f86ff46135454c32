package daemon

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// TestPlatformCannotApproveConsent: the platform may ask for consent, and
// nothing it sends, on any subject, answers for the person or reaches the
// consent key or the remembered choices.
func TestPlatformCannotApproveConsent(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	d, err := Start(ctx, Options{Home: home, ConsentPrompt: PromptCLI, Config: Config{Platform: PlatformConfig{Listen: "127.0.0.1:0"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// The person hands the platform what platform.json says.
	var creds struct {
		URL      string `json:"leafnode_url"`
		User     string `json:"user"`
		Password string `json:"password"`
	}
	b, err := os.ReadFile(filepath.Join(home, PlatformFile))
	if err != nil || json.Unmarshal(b, &creds) != nil {
		t.Fatalf("platform.json: %v", err)
	}
	if fi, _ := os.Stat(filepath.Join(home, PlatformFile)); fi.Mode().Perm() != 0o600 {
		t.Errorf("platform.json mode %v; want 0600", fi.Mode().Perm())
	}
	platformSecret := creds.Password
	if platformSecret != d.Server().Password(embedded.RolePlatform) {
		t.Fatal("platform.json holds another secret than the listener's")
	}

	// The platform's own NATS, linked to the shim as its leafnode.
	hub, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true,
		LeafNode: server.LeafNodeOpts{Remotes: []*server.RemoteLeafOpts{{URLs: []*url.URL{mustParse(t, "nats://platform:"+platformSecret+"@"+d.Server().LeafnodeAddr())}}}}})
	if err != nil {
		t.Fatal(err)
	}
	hub.Start()
	defer hub.Shutdown()
	for deadline := time.Now().Add(10 * time.Second); hub.NumLeafNodes() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("leafnode link not up")
		}
	}
	p, err := nats.Connect(hub.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	opsClient := ops.NewClient(p, events.OpsSubject(d.Server().MachineID()))

	// The platform asks; the question waits for the person.
	results := make(chan ops.ConsentResult, 1)
	go func() {
		var r ops.ConsentResult
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		for cctx.Err() == nil { // interest crosses the link shortly after it is up
			if err := opsClient.Call(cctx, ops.TypeRequestConsent, ops.ConsentRequest{Mode: "demonstration", InterpretationRoute: "screenshots_to_cloud", Channels: []string{"floor"}}, &r); err == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		results <- r
	}()
	local, _, err := client.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	cl := client.NewConsent(local)
	var prompt api.ConsentPrompt
	for deadline := time.Now().Add(20 * time.Second); prompt.ID == ""; time.Sleep(20 * time.Millisecond) {
		ps, err := cl.List(ctx)
		if err == nil && len(ps) == 1 {
			prompt = ps[0]
		}
		if time.Now().After(deadline) {
			t.Fatal("the platform's consent request never reached the person")
		}
	}

	// Everything the platform might try, knowing even the prompt's id.
	approve, _ := json.Marshal(api.ConsentAnswerRequest{ID: prompt.ID, Remember: true})
	forged, _ := json.Marshal(api.ConsentChoice{Kind: prompt.Kind, Approved: true})
	attempts := map[string][]byte{
		events.LocalConsentApprove: approve, "local.>": approve, "local.consent.*": approve,
		"$KV.CONSENT_CHOICES.x": forged, "$KV.CONSENT.x": forged, "$KV.>": forged,
		"$JS.API.STREAM.LIST": nil, "$JS.API.DIRECT.GET.KV_CONSENT_CHOICES": nil,
		"keys.consent-signing": nil, "shim." + d.Server().MachineID() + ".consent": approve,
	}
	for subj, body := range attempts {
		if strings.ContainsAny(subj, "*>") {
			p.Publish(strings.NewReplacer("*", "approve", ">", "consent.approve").Replace(subj), body)
			continue
		}
		if m, err := p.Request(subj, body, 200*time.Millisecond); err == nil {
			t.Errorf("platform request on %s was answered: %s", subj, m.Data)
		}
	}
	p.Flush()
	time.Sleep(200 * time.Millisecond)

	ps, err := cl.List(ctx)
	if err != nil || len(ps) != 1 || ps[0].ID != prompt.ID {
		t.Fatalf("after the platform's attempts the prompt list is %+v, %v; want it still waiting", ps, err)
	}
	if choices, err := cl.Choices(ctx); err != nil || len(choices) != 0 {
		t.Fatalf("remembered choices after the platform's attempts: %+v, %v; want none", choices, err)
	}
	// The person says no, and the platform hears no: no token.
	if err := cl.Deny(ctx, prompt.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-results:
		if r.Approved || r.ConsentToken != "" {
			t.Fatalf("platform got %+v; want not approved and no token", r)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no consent result")
	}
}

func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
