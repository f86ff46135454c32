package session

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/replay/pick"
)

// grants is a fake broker: it holds grant g1, or refuses with err.
type grants struct {
	err     error
	allowed []string
	revoked []string
}

func (g *grants) HoldGrant(context.Context, api.HoldRequest) (api.GrantReply, error) {
	return api.GrantReply{ID: "g1"}, g.err
}

func (g *grants) Allow(_ context.Context, id string, in api.Intent) error {
	g.allowed = append(g.allowed, id+":"+in.Kind)
	return nil
}

func (g *grants) Revoke(_ context.Context, id string) error {
	g.revoked = append(g.revoked, id)
	return nil
}

func TestHoldDesktop(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	g := &grants{}
	guard, release, err := HoldDesktop(context.Background(), g, log)
	if err != nil || guard == nil {
		t.Fatalf("HoldDesktop() = %v, %v; want a guard", guard, err)
	}
	if err := guard.Allow(context.Background(), desktop.Intent{Kind: "click"}); err != nil || len(g.allowed) != 1 || g.allowed[0] != "g1:click" {
		t.Errorf("guard.Allow(click) = %v, asked %q; want the broker asked under g1", err, g.allowed)
	}
	release()
	if len(g.revoked) != 1 || g.revoked[0] != "g1" {
		t.Errorf("release() revoked %q; want g1", g.revoked)
	}

	unsupported := &grants{err: ops.Errorf(ops.CodeComputerPlatformUnsupported, "not here")}
	if guard, release, err := HoldDesktop(context.Background(), unsupported, log); err != nil || guard != nil || release == nil {
		t.Errorf("HoldDesktop(grants not built for this OS) = %v, %v; want no guard, no error", guard, err)
	}
	refused := &grants{err: errors.New("stopped by the person")}
	if _, _, err := HoldDesktop(context.Background(), refused, log); err == nil || !strings.Contains(err.Error(), "stopped by the person") {
		t.Errorf("HoldDesktop(refused) = %v; want the refusal", err)
	}
}

func TestLocalBrowserHoldsNoDesktop(t *testing.T) {
	t.Parallel()
	g := &grants{}
	ex, release, err := Local{Kind: pick.Auto, SkillFile: "skills/new.yaml", Idle: 0, Grants: g, Parallel: 2}.Executor(context.Background(), testSkill())
	if err != nil {
		t.Fatal(err)
	}
	release()
	if ex.Guard != nil || ex.Lease != nil || len(g.revoked) != 0 || ex.Browser.SkillDir != "skills" || ex.Quiet != -1 || ex.Parallel != 2 {
		t.Errorf("Local{browser skill}.Executor() = %+v; want the browser's, no grant held, the skill's folder, no idle wait", ex)
	}
}
