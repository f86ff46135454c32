package daemon

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/scripted"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/ops"
)

// TestLocalModelRoute: the local_vlm route is given only while the model in
// config.json answers; when it does not, the start is refused with
// INTERPRETATION_UNAVAILABLE and the person's approval is not used up.
func TestLocalModelRoute(t *testing.T) {
	var up atomic.Bool
	up.Store(true)
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() || r.URL.Path != "/v1/models" {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"llava","object":"model"}]}`))
	}))
	defer llm.Close()
	home := t.TempDir()
	src := scripted.New("scripted", "../capture/scripted/testdata/form.json", []string{capture.ChannelFloor}, scripted.Options{})
	d, err := Start(context.Background(), Options{Home: home, ConsentPrompt: PromptCLI, Sources: []capture.Source{src},
		Config: Config{LocalModel: LocalModelConfig{BaseURL: llm.URL + "/v1", Model: "llava"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	nc, _, err := client.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	c := ops.NewClient(nc, events.OpsSubject(d.Server().MachineID()))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	asked := ops.ConsentRequest{Mode: "demonstration", InterpretationRoute: interpret.RouteLocalVLM, Channels: []string{"floor"}}
	start := func(token string) (ops.Started, error) {
		var s ops.Started
		err := c.Call(ctx, ops.TypeStart, ops.StartRequest{Mode: asked.Mode, InterpretationRoute: asked.InterpretationRoute, Channels: asked.Channels, ConsentToken: token}, &s)
		return s, err
	}

	up.Store(false)
	token := approvedToken(t, c, client.NewConsent(nc), asked).ConsentToken
	_, err = start(token)
	var e *ops.Error
	if !errors.As(err, &e) || e.Code != ops.CodeInterpretationUnavailable {
		t.Fatalf("start with the model down = %v; want INTERPRETATION_UNAVAILABLE", err)
	}
	up.Store(true)
	s, err := start(token) // the same approval: it was not used
	if err != nil || s.InterpretationRoute != interpret.RouteLocalVLM {
		t.Fatalf("start with the model up = %+v, %v; want the local_vlm route", s, err)
	}
	var sum ops.Summary
	if err := c.Call(ctx, ops.TypeStop, s.Ref(), &sum); err != nil {
		t.Fatal(err)
	}
}
