package computer

import (
	"context"
	"image"
	"testing"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
)

// TestReplayGrantAllowsWhereInputLands: a replay's unbound grant binds the
// window each input lands in (by title, under the point, else the
// focused one), refuses the windows any grant refuses, and ends with
// Stop; a program's grant waits out the cooldown.
func TestReplayGrantAllowsWhereInputLands(t *testing.T) {
	b, d, c, a := rig(t)
	ctx := context.Background()
	g, _, err := b.Create(ctx, GrantRequest{Issuer: IssuerAgent, Unbound: true})
	if err != nil {
		t.Fatal(err)
	}
	if g.Target.ID != "" {
		t.Fatalf("an unbound grant bound %s", g.Target.ID)
	}
	for _, tc := range []struct {
		name string
		in   api.Intent
		want string // a code, or "" for allowed
		to   string // the window then bound
	}{
		{"a fill in the step's window, by title", api.Intent{Kind: "fill", Window: "notes.txt - gedit", TextLen: 4, Role: "textbox"}, "", "0x5"},
		{"a title the step recorded in part", api.Intent{Kind: "click", Window: "Calculator"}, "", "0x6"},
		{"a click under a point", api.Intent{Kind: "click", Point: &image.Point{X: 850, Y: 620}}, "", "0x5"},
		{"reprise's own terminal", api.Intent{Kind: "click", Window: "reprise replay"}, ops.CodeComputerSelfTargetRefused, "0x5"},
		{"a keychain prompt", api.Intent{Kind: "fill", Window: "Unlock Keyring", TextLen: 8}, ops.CodeComputerTargetDenyListed, "0x5"},
		{"an elevated installer", api.Intent{Kind: "click", Window: "Installer"}, ops.CodeComputerTargetElevated, "0x5"},
		{"keys to the focused window, which is reprise's terminal", api.Intent{Kind: "press_keys", Keyboard: true}, ops.CodeComputerSelfTargetRefused, "0x5"},
		{"an intent without a kind", api.Intent{Window: "Calculator"}, ops.CodeComputerInvalidRequest, "0x5"},
	} {
		err := b.Allow(ctx, g.ID, tc.in)
		if code(err) != tc.want && !(tc.want == "" && err == nil) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
		if now, _ := b.Describe(); now.Target.ID != tc.to {
			t.Errorf("%s: bound to %s; want %s", tc.name, now.Target.ID, tc.to)
		}
	}
	// A password being typed refuses everything.
	d.mu.Lock()
	d.secure = true
	d.mu.Unlock()
	if err := b.Allow(ctx, g.ID, api.Intent{Kind: "click", Window: "Calculator"}); code(err) != ops.CodeComputerSecureInputRefused {
		t.Errorf("input while a password is typed: %v", err)
	}
	d.mu.Lock()
	d.secure = false
	d.mu.Unlock()
	b.Stop(ctx)
	if err := b.Allow(ctx, g.ID, api.Intent{Kind: "click", Window: "Calculator"}); code(err) != ops.CodeComputerNoGrant {
		t.Errorf("input after Stop: %v; want %s", err, ops.CodeComputerNoGrant)
	}
	if _, _, err := b.Create(ctx, GrantRequest{Issuer: IssuerAgent, Unbound: true}); code(err) != ops.CodeComputerStoppedByUser {
		t.Errorf("a replay's grant within the cooldown: %v", err)
	}
	c.t = c.t.Add(StopCooldown)
	if _, _, err := b.Create(ctx, GrantRequest{Issuer: IssuerAgent, Unbound: true}); err != nil {
		t.Errorf("a replay's grant after the cooldown: %v", err)
	}
	results := map[string]int{}
	typed := 0
	for _, e := range a.entries {
		if e["kind"] == "computer.action" {
			results[e["result"]]++
			if e["text_length"] != "" {
				typed++
			}
		}
	}
	if results["ok"] != 3 || results[auditCode(ops.CodeComputerSelfTargetRefused)] != 2 || results[auditCode(ops.CodeComputerTargetDenyListed)] != 1 ||
		results[auditCode(ops.CodeComputerTargetElevated)] != 1 || results[auditCode(ops.CodeComputerSecureInputRefused)] != 1 || typed != 2 {
		t.Errorf("audited actions %v (%d typed); want the 3 allowed and each refusal, typed text by length", results, typed)
	}
}
