package browser

import (
	"testing"

	"github.com/reprise-dev/reprise/internal/zoo"
	"github.com/reprise-dev/reprise/skills"
)

// A list picked by the keyboard shuts a few frames after its Enter: the
// next click waits until it has, or it lands on the list instead of the
// box below it (antd's Select over the booking form's "Airport pickup",
// which failed about one row in eight here before).
func TestNextClickWaitsForTheListToShut(t *testing.T) {
	ex, _ := browser(t)
	site := zoo.Serve()
	defer site.Close()
	rooms := []string{"Single", "Double", "Twin", "Family suite", "Studio", "Accessible double"}
	var opts []skills.Option
	for _, r := range rooms {
		opts = append(opts, skills.Option{Label: r})
	}
	for i := range 20 {
		open(t, ex, site.URL()+"/antd-booking/new")
		room := choose(1, "combobox", "Room type", rooms[i%len(rooms)], sel("label", "Room type"))
		room.Options = opts
		mustOK(t, ex, room)
		if out := run(t, ex, toggle(2, "checkbox", "Airport pickup", "true", sel("id", "#pickup"))); !out.OK {
			t.Fatalf("round %d: the box after the list: %s", i+1, out.Error)
		}
	}
}
