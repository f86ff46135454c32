package events

import (
	"bytes"
	"encoding/binary"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/reprise-dev/reprise/internal/mpack"
)

// The appenders below write steps and recordings without reflection, since a
// step is encoded on every publish. Their output is byte for byte what the
// msgpack library's reflective encoder writes for the same value (a map of
// the JSON names in field order; seq as a full uint64, times as float64,
// cursor coordinates as compact ints, nil pointers and slices as nil), which
// a test and the fuzz targets hold them to.

func appendRecording(b []byte, r *Recording) []byte {
	b = append(b, 0x80|7)
	b = mpack.Str(mpack.Str(b, "recording_id"), r.RecordingID)
	b = mpack.Str(mpack.Str(b, "version"), r.Version)
	b = mpack.Float64(mpack.Str(b, "created_at"), r.CreatedAt)
	b = mpack.Str(mpack.Str(b, "machine_id"), r.MachineID)
	b = mpack.Str(mpack.Str(b, "interpretation_route"), r.InterpretationRoute)
	b = mpack.Str(b, "steps")
	if r.Steps == nil {
		b = append(b, 0xc0)
	} else {
		b = mpack.ArrayLen(b, len(r.Steps))
		for i := range r.Steps {
			b = appendStep(b, &r.Steps[i])
		}
	}
	return mpack.Bool(mpack.Str(b, "redaction_applied"), r.RedactionApplied)
}

func appendStep(b []byte, s *Step) []byte {
	if s.extended() {
		// A 1.1 step with optional fields set is rare (a submit, an
		// inferred step): the library writes it, omitting what is empty.
		return appendReflective(b, s)
	}
	b = append(b, 0x80|13)
	b = append(mpack.Str(b, "seq"), 0xcf)
	b = binary.BigEndian.AppendUint64(b, s.Seq)
	b = mpack.Float64(mpack.Str(b, "ts"), s.TS)
	b = mpack.Str(mpack.Str(b, "actor"), s.Actor)
	b = mpack.Str(mpack.Str(b, "action"), s.Action)
	b = mpack.Str(mpack.Str(b, "screenshot_ref"), s.ScreenshotRef)
	b = mpack.Str(b, "cursor")
	if s.Cursor == nil {
		b = append(b, 0xc0)
	} else {
		b = mpack.ArrayLen(b, len(s.Cursor))
		for _, c := range s.Cursor {
			b = mpack.Int(b, int64(c))
		}
	}
	b = mpack.Str(mpack.Str(b, "active_app"), s.ActiveApp)
	b = mpack.Str(mpack.Str(b, "active_window"), s.ActiveWindow)
	b = mpack.Str(b, "enrichment")
	if e := s.Enrichment; e == nil {
		b = append(b, 0xc0)
	} else {
		b = appendEnrichment(b, e)
	}
	b = mpack.Str(b, "value")
	if v := s.Value; v == nil {
		b = append(b, 0xc0)
	} else {
		b = append(b, 0x80|3)
		b = mpack.Str(mpack.Str(b, "raw"), v.Raw)
		b = mpack.Str(mpack.Str(b, "type"), v.Type)
		b = mpack.Str(b, "is_parameter")
		if v.IsParameter == nil {
			b = append(b, 0xc0)
		} else {
			b = mpack.Bool(b, *v.IsParameter)
		}
	}
	b = mpack.StrPtr(mpack.Str(b, "narration"), s.Narration)
	b = mpack.Str(mpack.Str(b, "outcome"), s.Outcome)
	return mpack.Bool(mpack.Str(b, "redacted"), s.Redacted)
}

func appendEnrichment(b []byte, e *Enrichment) []byte {
	b = append(b, 0x80|6)
	b = mpack.Str(mpack.Str(b, "kind"), e.Kind)
	b = mpack.Str(b, "selectors")
	if e.Selectors == nil {
		b = append(b, 0xc0)
	} else {
		b = mpack.ArrayLen(b, len(e.Selectors))
		for _, sel := range e.Selectors {
			b = append(b, 0x80|2)
			b = mpack.Str(mpack.Str(b, "strategy"), sel.Strategy)
			b = mpack.Str(mpack.Str(b, "value"), sel.Value)
		}
	}
	b = mpack.StrPtr(mpack.Str(b, "ax_path"), e.AXPath)
	b = mpack.Str(mpack.Str(b, "role"), e.Role)
	b = mpack.Str(mpack.Str(b, "label"), e.Label)
	return mpack.Str(mpack.Str(b, "url"), e.URL)
}

// extended reports whether a step carries any of the optional fields of
// schemas 1.1 to 1.5, which the fast path does not write.
func (s *Step) extended() bool {
	e := s.Enrichment
	return s.Inferred || s.Effect != nil || len(s.Fields) > 0 || e != nil && (len(e.Options) > 0 || e.Container != nil || e.Keyed || e.Dialog != "" || e.Multiple || e.Half != "")
}

func appendReflective(b []byte, s *Step) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	enc := msgpack.GetEncoder()
	defer msgpack.PutEncoder(enc)
	enc.Reset(buf)
	if err := enc.Encode(s); err != nil {
		panic("events: encode step: " + err.Error()) // a Step of strings, numbers and slices always encodes
	}
	return append(b, buf.Bytes()...)
}
