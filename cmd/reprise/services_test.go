package main

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go/micro"

	"github.com/reprise-dev/reprise/audit"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/consent"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/recorder"
	"github.com/reprise-dev/reprise/recordings"
	"github.com/reprise-dev/reprise/skillbook"
)

// TestNatsCLIListsTheServices: the real nats CLI, with the local CLI
// user's credentials, lists every local service of a running daemon with
// its endpoints on today's subjects, and counts a refused request in the
// endpoint's stats.
func TestNatsCLIListsTheServices(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nc, natsRun := natsAgainstDaemon(ctx, t)
	want := map[string]map[string]string{
		audit.ServiceName: {"verify": events.LocalAuditVerify},
		consent.ServiceName: {"list": events.LocalConsentList, "approve": events.LocalConsentApprove, "deny": events.LocalConsentDeny,
			"choices": events.LocalConsentChoices, "forget": events.LocalConsentForget},
		skillbook.ServiceName: {"build": events.LocalSkillBuild, "draft": events.LocalSkillDraft, "confirm": events.LocalSkillConfirm,
			"get": events.LocalSkillGet, "list": events.LocalSkillList, "pending": events.LocalSkillPending},
		recordings.ServiceName:     {"list": events.LocalRecordingsList, "frame": events.LocalRecordingsFrame},
		daemon.ServiceName:         {"status": events.LocalStatus, "pair": events.LocalPair, "replay-key": events.LocalReplayKey},
		recorder.ImportServiceName: {"import": events.LocalRecordingsImport},
		computer.ServiceName: {"targets": events.LocalComputerTargets, "grant": events.LocalComputerGrant, "describe": events.LocalComputerDescribe,
			"revoke": events.LocalComputerRevoke, "stop": events.LocalComputerStop, "run": events.LocalComputerRun,
			"hold": events.LocalComputerHold, "allow": events.LocalComputerAllow},
	}

	out, err := natsRun("micro", "ls", "--json")
	if err != nil {
		t.Fatalf("nats micro ls: %v\n%s", err, out)
	}
	var listed []micro.Info
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatalf("nats micro ls printed %s: %v", out, err)
	}
	var names []string
	for _, s := range listed {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	wantNames := []string{audit.ServiceName, computer.ServiceName, consent.ServiceName, daemon.ServiceName, recorder.ImportServiceName, recordings.ServiceName, skillbook.ServiceName}
	slices.Sort(wantNames)
	if !slices.Equal(names, wantNames) {
		t.Fatalf("nats micro ls = %v; want one instance of each of %v", names, wantNames)
	}

	for name, endpoints := range want {
		out, err := natsRun("micro", "info", name, "--json")
		if err != nil {
			t.Fatalf("nats micro info %s: %v\n%s", name, err, out)
		}
		var info struct {
			Info micro.Info `json:"info"`
		}
		if err := json.Unmarshal([]byte(out), &info); err != nil {
			t.Fatalf("nats micro info %s printed %s: %v", name, out, err)
		}
		got := map[string]string{}
		for _, ep := range info.Info.Endpoints {
			got[ep.Name] = ep.Subject
		}
		if len(got) != len(endpoints) {
			t.Errorf("%s endpoints = %v; want %v", name, got, endpoints)
		}
		for ep, subject := range endpoints {
			if got[ep] != subject {
				t.Errorf("%s endpoint %s on %q; want %q", name, ep, got[ep], subject)
			}
		}
	}

	// A malformed request is refused, and counted; the service answers on.
	var refused *ops.Error
	if _, err := ops.Ask(ctx, nc, events.LocalConsentList, []byte("not json")); !errors.As(err, &refused) || refused.Code != ops.CodeInvalidRequest {
		t.Fatalf("consent list with a malformed body = %v; want INVALID_REQUEST", err)
	}
	if _, err := client.NewConsent(nc).List(ctx); err != nil {
		t.Fatalf("consent list after the refusal: %v", err)
	}
	out, err = natsRun("micro", "stats", consent.ServiceName, "--json")
	if err != nil {
		t.Fatalf("nats micro stats: %v\n%s", err, out)
	}
	var stats []micro.Stats
	if err := json.Unmarshal([]byte(out), &stats); err != nil || len(stats) != 1 {
		t.Fatalf("nats micro stats printed %s: %v; want one instance", out, err)
	}
	i := slices.IndexFunc(stats[0].Endpoints, func(ep *micro.EndpointStats) bool { return ep.Name == "list" })
	if i < 0 {
		t.Fatalf("nats micro stats printed %s; want the list endpoint", out)
	}
	if ep := stats[0].Endpoints[i]; ep.NumRequests != 2 || ep.NumErrors != 1 || ep.LastError == "" {
		t.Errorf("stats of consent list = %d requests, %d errors, last %q; want 2, 1 and the refusal", ep.NumRequests, ep.NumErrors, ep.LastError)
	}
}
