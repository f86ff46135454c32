package embedded

import (
	"fmt"
	"slices"
	"testing"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/reprise-dev/reprise/events"
)

// TestCLIJetStreamSubjects: the CLI's JetStream calls, built from events,
// are the subjects nats-server serves them on, and no more than before
// they were built (a change here is a change of the CLI's rights).
func TestCLIJetStreamSubjects(t *testing.T) {
	want := []string{
		"$JS.API.INFO",
		"$JS.API.STREAM.NAMES",
		"$JS.API.STREAM.LIST",
		"$JS.API.STREAM.INFO.*",
		"$JS.API.STREAM.MSG.GET.*",
		"$JS.API.DIRECT.GET.>",
		"$JS.API.CONSUMER.NAMES.*",
		"$JS.API.CONSUMER.LIST.*",
		"$JS.API.CONSUMER.INFO.*.*",
		"$JS.API.CONSUMER.CREATE.REPLAY.>",
		"$JS.API.CONSUMER.MSG.NEXT.REPLAY.*",
		"$JS.API.CONSUMER.DELETE.REPLAY.*",
		"$JS.API.CONSUMER.CREATE.AUDIT.>",
		"$JS.API.CONSUMER.MSG.NEXT.AUDIT.*",
		"$JS.API.CONSUMER.DELETE.AUDIT.*",
	}
	if !slices.Equal(cliJS, want) {
		t.Errorf("cliJS = %q; want %q", cliJS, want)
	}
	for _, c := range []struct{ got, want string }{
		{events.JSAccountInfo, server.JSApiAccountInfo},
		{events.JSStreamNames, server.JSApiStreams},
		{events.JSStreamList, server.JSApiStreamList},
		{events.JSStreamInfo(events.Wildcard), server.JSApiStreamInfo},
		{events.JSStreamMsgGet(events.Wildcard), server.JSApiMsgGet},
		{events.JSDirectGet(events.Wildcard), server.JSDirectMsgGet},
		{events.JSConsumerNames(events.Wildcard), server.JSApiConsumers},
		{events.JSConsumerList(events.Wildcard), server.JSApiConsumerList},
		{events.JSConsumerInfo(events.Wildcard, events.Wildcard), server.JSApiConsumerInfo},
		{events.JSConsumerCreate(events.Wildcard), server.JSApiConsumerCreateEx},
		{events.JSConsumerNext(events.StreamReplay, "c"), fmt.Sprintf(server.JSApiRequestNextT, events.StreamReplay, "c")},
		{events.JSConsumerDelete(events.Wildcard, events.Wildcard), server.JSApiConsumerDelete},
	} {
		if c.got != c.want {
			t.Errorf("events builds %q; nats-server serves %q", c.got, c.want)
		}
	}
}

// TestRoleSubjects: the subjects the roles are granted, built from events,
// are those they were granted as literals.
func TestRoleSubjects(t *testing.T) {
	cli := permissions(RoleCLI, "m1")
	if got, want := cli.Publish.Allow[:3], []string{"shim.m1.ops", "local.>", "run.>"}; !slices.Equal(got, want) {
		t.Errorf("CLI publish = %q...; want %q first", got, want)
	}
	if got, want := cli.Subscribe.Allow, []string{"rec.*.live", "local.ask.>"}; !slices.Equal(got, want) {
		t.Errorf("CLI subscribe = %q; want %q", got, want)
	}
	if got, want := cliServices, []string{"$SRV.PING", "$SRV.PING.>", "$SRV.INFO", "$SRV.INFO.>", "$SRV.STATS", "$SRV.STATS.>"}; !slices.Equal(got, want) {
		t.Errorf("cliServices = %q; want %q", got, want)
	}
	ext := permissions(RoleExtension, "m1")
	if ext.Publish.Allow[0] != "ingest.chrome.>" || ext.Subscribe.Allow[0] != "_INBOX_ext.>" {
		t.Errorf("extension = %q, %q; want ingest.chrome.>, _INBOX_ext.>", ext.Publish.Allow, ext.Subscribe.Allow)
	}
	if d := permissions(RoleDaemon, "m1"); d.Publish.Deny[0] != "ingest.chrome.>" {
		t.Errorf("daemon publish deny = %q; want ingest.chrome.>", d.Publish.Deny)
	}
}
