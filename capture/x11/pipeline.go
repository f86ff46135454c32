package x11

import (
	"encoding/binary"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/desktop"
)

// pipeline is this source's: RECORD events, resolved in place.
type pipeline = desktop.Pipeline[desktop.Raw]

func newPipeline(sink capture.Sink, opts Options, resolve func(*desktop.Raw)) *pipeline {
	return desktop.NewPipeline(sink, opts.PipelineOptions, func(dst []desktop.Raw, r desktop.Raw) []desktop.Raw {
		if resolve != nil {
			resolve(&r)
		}
		return append(dst, r)
	})
}

// onWire is the RECORD callback: it parses one event off the stream,
// stamps it and feeds it.
func onWire(p *pipeline) func(ev []byte, order binary.ByteOrder) {
	return func(ev []byte, order binary.ByteOrder) {
		r, ok := parseEvent(ev, order)
		if !ok {
			return
		}
		r.Time = time.Now()
		p.Feed(r)
	}
}
