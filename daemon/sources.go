package daemon

import (
	"log/slog"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/floor"
	"github.com/reprise-dev/reprise/capture/scripted"
)

// Script plays a trajectory file as the daemon's capture source, in place
// of this OS's desktop floor: for demos and tests.
type Script struct {
	// Path is the file: a JSON recording or JSON lines.
	Path string
	// Channels are the channels the source says it provides.
	Channels []string
	// Speed is the playback speed: 1 real time, 0 as fast as possible.
	Speed float64
	// Patient waits out a full capture queue instead of dropping steps.
	Patient bool
	// Frames is a directory of <screenshot_ref>.png frames kept with the
	// steps.
	Frames string
}

// sources are the capture sources the daemon offers besides the browser
// channel: those opts name, else the scripted source (a *ScriptError
// when it cannot play), else this OS's desktop floor, which says why when
// it cannot run.
func (opts Options) sources(log *slog.Logger) ([]capture.Source, error) {
	if len(opts.Sources) > 0 {
		return opts.Sources, nil
	}
	if s := opts.Script; s != nil {
		src := scripted.New("scripted", s.Path, s.Channels, scripted.Options{Speed: s.Speed, Patient: s.Patient, Frames: s.Frames})
		if ok, why := src.Available(); !ok {
			return nil, &ScriptError{Path: s.Path, Why: why}
		}
		return []capture.Source{src}, nil
	}
	return []capture.Source{floor.New("", log)}, nil
}

// ScriptError is a capture script the scripted source cannot play: Why
// says what is wrong with the file at Path.
type ScriptError struct{ Path, Why string }

func (e *ScriptError) Error() string { return "capture script " + e.Path + ": " + e.Why }
