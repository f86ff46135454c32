package ops

import "github.com/reprise-dev/reprise/events"

// MaxImportSteps bounds an imported recording: a flow of more steps is
// not a form filled by hand.
const MaxImportSteps = 2000

// ImportRequest is a recording read from another tool's file (a Chrome
// Recorder flow, a Selenium IDE test), in the trajectory schema. The local
// CLI sends it; the shim stores it as a stopped recording, which must be
// reviewed before a skill is built from it, as a demonstration must.
type ImportRequest struct {
	// Format is where the steps came from: chrome-recorder, selenium-ide.
	Format string        `json:"format"`
	Steps  []events.Step `json:"steps"`
}
