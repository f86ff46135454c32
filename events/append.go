package events

import (
	"encoding/binary"
	"math"
)

// The appenders below write steps and recordings without reflection, since a
// step is encoded on every publish. Their output is byte for byte what the
// msgpack library's reflective encoder writes for the same value (a map of
// the JSON names in field order; seq as a full uint64, times as float64,
// cursor coordinates as compact ints, nil pointers and slices as nil), which
// a test and the fuzz targets hold them to.

func appendRecording(b []byte, r *Recording) []byte {
	b = append(b, 0x80|7)
	b = appendStr(appendStr(b, "recording_id"), r.RecordingID)
	b = appendStr(appendStr(b, "version"), r.Version)
	b = appendFloat64(appendStr(b, "created_at"), r.CreatedAt)
	b = appendStr(appendStr(b, "machine_id"), r.MachineID)
	b = appendStr(appendStr(b, "interpretation_route"), r.InterpretationRoute)
	b = appendStr(b, "steps")
	if r.Steps == nil {
		b = append(b, 0xc0)
	} else {
		b = appendArrayLen(b, len(r.Steps))
		for i := range r.Steps {
			b = appendStep(b, &r.Steps[i])
		}
	}
	return appendBool(appendStr(b, "redaction_applied"), r.RedactionApplied)
}

func appendStep(b []byte, s *Step) []byte {
	b = append(b, 0x80|13)
	b = append(appendStr(b, "seq"), 0xcf)
	b = binary.BigEndian.AppendUint64(b, s.Seq)
	b = appendFloat64(appendStr(b, "ts"), s.TS)
	b = appendStr(appendStr(b, "actor"), s.Actor)
	b = appendStr(appendStr(b, "action"), s.Action)
	b = appendStr(appendStr(b, "screenshot_ref"), s.ScreenshotRef)
	b = appendStr(b, "cursor")
	if s.Cursor == nil {
		b = append(b, 0xc0)
	} else {
		b = appendArrayLen(b, len(s.Cursor))
		for _, c := range s.Cursor {
			b = appendInt(b, int64(c))
		}
	}
	b = appendStr(appendStr(b, "active_app"), s.ActiveApp)
	b = appendStr(appendStr(b, "active_window"), s.ActiveWindow)
	b = appendStr(b, "enrichment")
	if e := s.Enrichment; e == nil {
		b = append(b, 0xc0)
	} else {
		b = appendEnrichment(b, e)
	}
	b = appendStr(b, "value")
	if v := s.Value; v == nil {
		b = append(b, 0xc0)
	} else {
		b = append(b, 0x80|3)
		b = appendStr(appendStr(b, "raw"), v.Raw)
		b = appendStr(appendStr(b, "type"), v.Type)
		b = appendStr(b, "is_parameter")
		if v.IsParameter == nil {
			b = append(b, 0xc0)
		} else {
			b = appendBool(b, *v.IsParameter)
		}
	}
	b = appendStrPtr(appendStr(b, "narration"), s.Narration)
	b = appendStr(appendStr(b, "outcome"), s.Outcome)
	return appendBool(appendStr(b, "redacted"), s.Redacted)
}

func appendEnrichment(b []byte, e *Enrichment) []byte {
	b = append(b, 0x80|6)
	b = appendStr(appendStr(b, "kind"), e.Kind)
	b = appendStr(b, "selectors")
	if e.Selectors == nil {
		b = append(b, 0xc0)
	} else {
		b = appendArrayLen(b, len(e.Selectors))
		for _, sel := range e.Selectors {
			b = append(b, 0x80|2)
			b = appendStr(appendStr(b, "strategy"), sel.Strategy)
			b = appendStr(appendStr(b, "value"), sel.Value)
		}
	}
	b = appendStrPtr(appendStr(b, "ax_path"), e.AXPath)
	b = appendStr(appendStr(b, "role"), e.Role)
	b = appendStr(appendStr(b, "label"), e.Label)
	return appendStr(appendStr(b, "url"), e.URL)
}

func appendStr(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n < 1<<8:
		b = append(b, 0xd9, byte(n))
	case n < 1<<16:
		b = binary.BigEndian.AppendUint16(append(b, 0xda), uint16(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0xdb), uint32(n))
	}
	return append(b, s...)
}

func appendStrPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, 0xc0)
	}
	return appendStr(b, *s)
}

func appendArrayLen(b []byte, n int) []byte {
	switch {
	case n < 16:
		return append(b, 0x90|byte(n))
	case n < 1<<16:
		return binary.BigEndian.AppendUint16(append(b, 0xdc), uint16(n))
	default:
		return binary.BigEndian.AppendUint32(append(b, 0xdd), uint32(n))
	}
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 0xc3)
	}
	return append(b, 0xc2)
}

func appendFloat64(b []byte, f float64) []byte {
	return binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(f))
}

// appendInt writes n in the fewest bytes msgpack allows, as the library's
// EncodeInt does.
func appendInt(b []byte, n int64) []byte {
	switch {
	case n >= 0 && n <= math.MaxInt8:
		return append(b, byte(n))
	case n >= 0 && n <= math.MaxUint8:
		return append(b, 0xcc, byte(n))
	case n >= 0 && n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, 0xcd), uint16(n))
	case n >= 0 && n <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(n))
	case n >= 0:
		return binary.BigEndian.AppendUint64(append(b, 0xcf), uint64(n))
	case n >= -32:
		return append(b, byte(n))
	case n >= math.MinInt8:
		return append(b, 0xd0, byte(n))
	case n >= math.MinInt16:
		return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(n))
	case n >= math.MinInt32:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(n))
	default:
		return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(n))
	}
}
