package daemon

import (
	"errors"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/floor"
	"github.com/reprise-dev/reprise/capture/scripted"
)

// TestSourcesPicked: the daemon, not the CLI, picks what it records from:
// the sources it is given, else the script, else this OS's floor.
func TestSourcesPicked(t *testing.T) {
	given := scripted.New("given", "../capture/scripted/testdata/form.json", []string{"floor"}, scripted.Options{})
	got, err := Options{Sources: []capture.Source{given}, Script: &Script{Path: "nowhere.json"}}.sources(nil)
	if err != nil || len(got) != 1 || got[0] != given {
		t.Errorf("with Sources: %v, %v; want the given source alone", got, err)
	}
	got, err = Options{Script: &Script{Path: "../capture/scripted/testdata/form.json", Channels: []string{"floor", "browser"}}}.sources(nil)
	if err != nil || len(got) != 1 || got[0].Name() != "scripted" || strings.Join(got[0].Channels(), ",") != "floor,browser" {
		t.Errorf("with Script: %v, %v; want the scripted source on floor and browser", got, err)
	}
	if _, err := (Options{Script: &Script{Path: "testdata/no-such-script.json"}}).sources(nil); !errors.As(err, new(*ScriptError)) || !strings.Contains(err.Error(), "capture script testdata/no-such-script.json") {
		t.Errorf("with a missing script: %v; want an error naming the capture script", err)
	}
	got, err = Options{}.sources(nil)
	if err != nil || len(got) != 1 || got[0].Name() != floor.New("", nil).Name() {
		t.Errorf("with neither: %v, %v; want this OS's floor", got, err)
	}
}
