package embedded

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go/micro"
)

// TestCLIDiscoversServices: the daemon may serve on the services framework
// (its $SRV subscriptions), and the CLI may ask every service, or one, for
// PING, INFO and STATS and read the replies; it may neither pose as a
// service nor publish elsewhere under $SRV.
func TestCLIDiscoversServices(t *testing.T) {
	s := startServer(t, nil)
	d := daemonConn(t, s)
	svc, err := micro.AddService(d, micro.Config{Name: "reprise-test", Version: "1.0.0"})
	if err != nil {
		t.Fatalf("the daemon adds a service: %v", err)
	}
	defer svc.Stop()
	if err := svc.AddEndpoint("echo", micro.HandlerFunc(func(r micro.Request) { _ = r.Respond(r.Data()) }), micro.WithEndpointSubject("local.test.echo")); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	id := svc.Info().ID

	cli := connect(t, s.ClientURL(), CLIOptions(s.Password(RoleCLI))...)
	for _, tc := range []struct{ subject, typ string }{
		{"$SRV.PING", micro.PingResponseType},
		{"$SRV.INFO.reprise-test", micro.InfoResponseType},
		{"$SRV.STATS.reprise-test." + id, micro.StatsResponseType},
	} {
		m, err := cli.Request(tc.subject, nil, 2*time.Second)
		if err != nil {
			t.Fatalf("cli request on %s: %v", tc.subject, err)
		}
		var r struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}
		if err := json.Unmarshal(m.Data, &r); err != nil || r.Type != tc.typ || r.Name != "reprise-test" {
			t.Errorf("%s answered %s (%v); want a %s of reprise-test", tc.subject, m.Data, err, tc.typ)
		}
	}
	cli.wantNoViolation(t, "cli asks the services")

	cli.SubscribeSync("$SRV.>")
	cli.wantViolation(t, "cli subscribes to the services' discovery subjects")
	cli.SubscribeSync("$SRV.PING")
	cli.wantViolation(t, "cli answers PING as a service")
	cli.Publish("$SRV.OTHER.reprise-test", nil)
	cli.wantViolation(t, "cli publishes outside PING, INFO and STATS")
}
