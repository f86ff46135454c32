package heal

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/scripted"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/model"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/skills"
)

const desktopSkill = `version: 1
name: desktop customer
ai: on_miss
parameters:
  - {name: first_name, column: First Name, type: text}
  - {name: email, column: Email, type: email}
dedupe_key: [email]
steps:
  - action: fill
    role: textbox
    label: First Name
    value: "%first_name%"
    floor: {active_window: New customer}
    read_back: {kind: value, expect: "%first_name%"}
  - action: fill
    role: textbox
    label: Email
    value: "%email%"
    floor: {active_window: New customer}
    read_back: {kind: value, expect: "%email%"}
  - action: click
    role: button
    label: Save
    floor: {active_window: New customer}
    destructive: true
`

// TestHealsADesktopStepUnderXvfb: a GTK form whose fields and button were
// renamed since the skill was built; the desktop executor misses each
// (by the accessibility tree, with no recorded point), and a scripted
// OpenAI-compatible model names the element in the window's outline; the
// executor fills it through the tree, and the form files exactly the
// row's values.
func TestHealsADesktopStepUnderXvfb(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	printed := &syncbuf.Buffer{}
	d.Zenity(t, printed, "--forms", "--title", "New customer", "--add-entry", "Given name", "--add-entry", "E-mail address")
	in, err := input.NewX11(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := atspi.New(atspi.Options{Display: d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	ex, err := desktop.New(desktop.Options{AX: ax.ATSPI{Enricher: tree}, Input: in, Quiet: -1, FindTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	llm := scripted.New(t, func(req scripted.Request) string {
		q := req.First()
		want := map[int][2]string{1: {"text_field", "Given name"}, 2: {"text_field", "E-mail address"}, 3: {"button", "OK"}}[scripted.Step(q)]
		return fmt.Sprintf(`{"action":"step","element":%q}`, scripted.Ref(q, want[0], want[1]))
	})
	m, err := model.NewOpenAI(model.Config{Provider: model.ProviderOpenAI, BaseURL: llm.URL + "/v1", Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	sk, err := skills.Parse([]byte(desktopSkill))
	if err != nil {
		t.Fatal(err)
	}
	h := New(ex, Options{Skill: sk, Model: m, Look: func(ctx context.Context, st replay.Step) (Screen, error) {
		title, tree, err := ex.Look(ctx, st)
		return Screen{Title: title, Tree: tree}, err
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	values := map[string]string{"first_name": "Ada", "email": "ada@example.org"}
	for i := range sk.Steps {
		st := replay.Step{Row: 1, Index: i, Step: sk.Steps[i], Template: sk.Steps[i], Values: values}
		st.Value, _ = skills.Expand(st.Value, values)
		if st.ReadBack != nil {
			rb := *st.ReadBack
			rb.Expect, _ = skills.Expand(rb.Expect, values)
			st.ReadBack = &rb
		}
		out, err := h.Do(ctx, st)
		if err != nil || !out.OK || out.Via != replay.ViaModel {
			t.Fatalf("step %d = %+v, %v; want healed by the model", i+1, out, err)
		}
	}
	// zenity prints the form's values as it closes.
	for deadline := time.Now().Add(10 * time.Second); printed.String() == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
	}
	if got := strings.TrimSpace(printed.String()); got != "Ada|ada@example.org" {
		t.Fatalf("the form filed %q", got)
	}
	if n := llm.Count(); n != 3 {
		t.Errorf("%d model calls; want one a step", n)
	}
}
