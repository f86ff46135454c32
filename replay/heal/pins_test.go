package heal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// pinnedSkill is skillYAML with step 2 pinned for this host's system.
func pinnedSkill(t *testing.T, pins string, ai string) *skills.Skill {
	t.Helper()
	doc := strings.Replace(skillYAML, "    label: Email\n", "    label: Email\n    recorded:\n      "+hostSystem()+":\n"+pins, 1)
	doc = strings.Replace(doc, "ai: on_miss", "ai: "+ai, 1)
	sk, err := skills.Parse([]byte(doc))
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return sk
}

func TestPinnedStepsRunAheadOfTheRecording(t *testing.T) {
	sk := pinnedSkill(t, `        - click: {role: button, name: Accept all}
        - wait: 1ms
        - type: {into: {role: text_field, name: E-mail address}, text: "%email%"}
`, "never")
	p, m := form(), &llm{}
	e := New(p, Options{Skill: sk, Model: m, Look: p.look})
	out, err := e.Do(context.Background(), step(sk, 1, 1))
	if err != nil || !out.OK || out.Via != replay.ViaPinned || len(m.asked) != 0 {
		t.Fatalf("Do = %+v, %v (model asked %d); want the pins, no model", out, err, len(m.asked))
	}
	if got := strings.Join(p.ran, ", "); got != "click Accept all, fill E-mail address" {
		t.Errorf("ran %s", got)
	}

	// A pin that misses: ai: never fails naming it; on_miss lets the model on.
	miss := "        - click: {role: button, name: Nope}\n"
	never := pinnedSkill(t, miss, "never")
	e = New(form(), Options{Skill: never, Look: p.look})
	out, err = e.Do(context.Background(), step(never, 1, 1))
	if err != nil || out.OK || !strings.Contains(out.Error, fmt.Sprintf("pinned step 1 of 1 (click) for %s", hostSystemGOOS())) {
		t.Errorf("a missed pin under never = %+v, %v", out, err)
	}
	sk = pinnedSkill(t, miss, "on_miss")
	p2 := form()
	e = New(p2, Options{Skill: sk, Model: &llm{answers: []string{`{"action":"step","element":"e5"}`}}, Look: p2.look})
	if out, err = e.Do(context.Background(), step(sk, 1, 1)); err != nil || !out.OK || out.Via != replay.ViaModel {
		t.Errorf("a missed pin under on_miss = %+v, %v; want the model to take over", out, err)
	}
}

// TestCacheShowPastesAsPins: what `reprise cache show` prints for a
// healed step is the recorded: block a skill takes, and it does the same.
func TestCacheShowPastesAsPins(t *testing.T) {
	e, _, _, sk := setup(t, `{"action":"click","element":"e1"}`, `{"action":"step","element":"e5"}`)
	if out, err := e.Do(context.Background(), step(sk, 1, 1)); err != nil || !out.OK {
		t.Fatalf("heal: %+v, %v", out, err)
	}
	var b bytes.Buffer
	ps := Pin(e.o.Cache)
	WritePinned(&b, "customer", ps)
	if len(ps) != 1 || ps[0].Step != 2 || len(ps[0].Recorded) != 2 || len(ps[0].Unpinnable) != 0 {
		t.Fatalf("Pin = %+v", ps)
	}
	var block strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if !strings.HasPrefix(line, "#") {
			block.WriteString("    " + line + "\n")
		}
	}
	doc := strings.Replace(skillYAML, "    label: Email\n", "    label: Email\n"+block.String(), 1)
	pinned, err := skills.Parse([]byte(strings.Replace(doc, "ai: on_miss", "ai: never", 1)))
	if err != nil {
		t.Fatalf("the pasted block does not parse: %v\n%s", err, doc)
	}
	p := form()
	out, err := New(p, Options{Skill: pinned, Look: p.look}).Do(context.Background(), step(pinned, 2, 1))
	if err != nil || !out.OK || out.Via != replay.ViaPinned || strings.Join(p.ran, ", ") != "click Accept all, fill E-mail address" {
		t.Fatalf("the pasted pins: %+v, %v, ran %v", out, err, p.ran)
	}
}

func hostSystemGOOS() string {
	if s := hostSystem(); s != "macos" {
		return s
	}
	return "darwin"
}

func TestNewPinnedCacheJSON(t *testing.T) {
	b, err := json.Marshal(NewPinnedCache("new-customer", nil))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`{"operations":[],"skill":"new-customer","version":%d}`, CacheVersion)
	if string(b) != want {
		t.Errorf("NewPinnedCache(no operations) = %s; want %s", b, want)
	}
}
