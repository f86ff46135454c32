package chrome

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// step11 is a step with schema 1.1's fields: extra is spliced into the
// step's JSON object.
func step11(action, enrichment, value, extra string) json.RawMessage {
	s := `{"seq":0,"ts":` + jsonNum(events.Stamp(time.Now())) + `,"actor":"human","action":"` + action +
		`","screenshot_ref":"","cursor":[1,2],"active_app":"Chromium","active_window":"Form","enrichment":` + enrichment +
		`,"value":` + value + `,"narration":null,"outcome":"ok","redacted":false` + extra + `}`
	return json.RawMessage(s)
}

func jsonNum(f float64) string { b, _ := json.Marshal(f); return string(b) }

// The extension's 1.1 steps (a choice with its options, an inferred state,
// a destructive step with its effect and field inventory) are taken whole;
// one past the schema's bounds is refused, saying which field.
func TestSchema11StepsTaken(t *testing.T) {
	r := newRig(t)
	src := r.source(t)
	r.hello(t)
	q := capture.NewQueue(16)
	if err := src.Start(context.Background(), capture.Session{RecordingID: "rec_x", Mode: "demonstration", Channels: []string{"browser"}}, q); err != nil {
		t.Fatal(err)
	}
	const origin = "http://127.0.0.1:8080"
	group := `{"kind":"dom","selectors":[{"strategy":"name","value":"plan"}],"ax_path":null,"role":"radiogroup","label":"Plan","url":"http://127.0.0.1:8080/f",` +
		`"options":[{"label":"Basic","value":"basic"},{"label":"Pro","value":"pro"}]}`
	box := `{"kind":"dom","selectors":[{"strategy":"id","value":"#prio"}],"ax_path":null,"role":"checkbox","label":"Priority","url":"http://127.0.0.1:8080/f","container":{"role":"group","name":"Shipping"}}`
	form := `{"kind":"dom","selectors":[{"strategy":"id","value":"#f"}],"ax_path":null,"role":"form","label":"","url":"http://127.0.0.1:8080/f"}`
	effect := `,"effect":{"texts":["Saved as record 7"],"form_reset":true,"status":201,"millis":1180},` +
		`"fields":[{"label":"Plan","role":"radiogroup","type":"radio","name":"plan","required":true,"selectors":[{"strategy":"name","value":"plan"}],"options":[{"label":"Basic","value":"basic"}]}]`
	for i, s := range []json.RawMessage{
		step11("select", group, `{"raw":"Pro","type":"enum","is_parameter":null}`, ""),
		step11("click", box, `{"raw":"checked","type":"enum","is_parameter":null}`, `,"inferred":true`),
		step11("submit", form, "null", effect),
	} {
		if rep := r.send(t, StepRequest{ID: string(rune('a' + i)), Origin: origin, Step: s}); !rep.OK {
			t.Fatalf("step %d refused: %+v", i, rep)
		}
	}
	tooMany := `,"effect":{"texts":["1","2","3","4","5","6","7","8","9","10","11","12","13","14","15","16","17"]}`
	if rep := r.send(t, StepRequest{ID: "z", Origin: origin, Step: step11("submit", form, "null", tooMany)}); rep.OK || !strings.Contains(rep.Error, "effect.texts") {
		t.Errorf("a step with 17 effect texts = %+v; want refused, naming effect.texts", rep)
	}
	noName := strings.Replace(box, `"name":"Shipping"`, `"name":""`, 1)
	if rep := r.send(t, StepRequest{ID: "y", Origin: origin, Step: step11("click", noName, "null", "")}); rep.OK || !strings.Contains(rep.Error, "enrichment.container") {
		t.Errorf("a step whose container has no name = %+v; want refused, naming enrichment.container", rep)
	}
	if err := src.Stop(); err != nil {
		t.Fatal(err)
	}
	var got []events.Step
	q.Close()
	_ = q.Run(context.Background(), func(s events.Step) error { got = append(got, s); return nil })
	if len(got) != 3 {
		t.Fatalf("%d steps queued; want 3", len(got))
	}
	if o := got[0].Enrichment.Options; len(o) != 2 || o[1] != (events.Option{Label: "Pro", Value: "pro"}) || got[0].Value.Raw != "Pro" {
		t.Errorf("the choice = %+v %+v; want its options and the option's label", got[0].Enrichment, got[0].Value)
	}
	if !got[1].Inferred {
		t.Error("the inferred step lost its mark")
	}
	if c := got[1].Enrichment.Container; c == nil || *c != (events.Container{Role: "group", Name: "Shipping"}) {
		t.Errorf("the box's container = %+v; want group Shipping", c)
	}
	if e := got[2].Effect; e == nil || e.Status != 201 || !e.FormReset || e.Millis != 1180 || len(e.Texts) != 1 || len(got[2].Fields) != 1 || !got[2].Fields[0].Required {
		t.Errorf("the submit = effect %+v, fields %+v; want both whole", got[2].Effect, got[2].Fields)
	}
}

// A recording that stops while the extension holds steps for their effect
// tells it to settle them, and takes them before it ends.
func TestStopWaitsForHeldSteps(t *testing.T) {
	r := newRig(t)
	src := r.source(t)
	q := capture.NewQueue(16)
	if err := src.Start(context.Background(), capture.Session{RecordingID: "rec_x", Mode: "demonstration", Channels: []string{"browser"}}, q); err != nil {
		t.Fatal(err)
	}
	hello := func(held int) Hello {
		b, _ := json.Marshal(HelloRequest{Held: held})
		m, err := r.ext.Request(events.ExtensionHello, b, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var h Hello
		if err := json.Unmarshal(m.Data, &h); err != nil {
			t.Fatal(err)
		}
		return h
	}
	if h := hello(1); !h.Recording || h.Stopping {
		t.Fatalf("hello while holding = %+v; want recording, not stopping", h)
	}
	if !src.Joined("rec_x") || src.Joined("rec_y") {
		t.Error("Joined does not reflect the extension's hello")
	}
	stopped := make(chan struct{})
	go func() { _ = src.Stop(); close(stopped) }()
	// The extension's next hellos learn of the stop, then send the step.
	deadline := time.Now().Add(3 * time.Second)
	for !hello(1).Stopping {
		if time.Now().After(deadline) {
			t.Fatal("the hello never said the recording is stopping")
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case <-stopped:
		t.Fatal("Stop returned while the extension still held a step")
	default:
	}
	if rep := r.send(t, StepRequest{ID: "held", Origin: "http://127.0.0.1:8080", Step: fillStep("Name", "Ada")}); !rep.OK {
		t.Fatalf("the held step was refused while stopping: %+v", rep)
	}
	hello(0)
	select {
	case <-stopped:
	case <-time.After(3 * time.Second):
		t.Fatal("Stop did not return once nothing was held")
	}
	if q.Len() != 1 {
		t.Errorf("%d steps taken; want the held one", q.Len())
	}
}
