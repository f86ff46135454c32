package events

import (
	"fmt"
	"math"
	"strings"
)

// SchemaError says which field of a step or recording is wrong and how. It
// never carries a field's value: values may be secrets.
type SchemaError struct {
	Field   string // a JSON path such as "steps[3].enrichment.kind"
	Problem string
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("invalid %s: %s", e.Field, e.Problem)
}

// Validate checks that a step obeys the schema: known actor, verb, outcome,
// enrichment kind, selector strategies and value type; a cursor of two
// coordinates; and no value on a secret.
func (s *Step) Validate() error {
	return s.validate("step")
}

func (s *Step) validate(at string) error {
	if err := oneOf(at+".actor", s.Actor, actors); err != nil {
		return err
	}
	if err := oneOf(at+".action", s.Action, actions); err != nil {
		return err
	}
	if err := oneOf(at+".outcome", s.Outcome, outcomes); err != nil {
		return err
	}
	if !finite(s.TS) || s.TS < 0 {
		return &SchemaError{at + ".ts", "must be a non-negative number of seconds since the epoch"}
	}
	if len(s.Cursor) != 2 {
		return &SchemaError{at + ".cursor", fmt.Sprintf("must hold exactly two coordinates [x, y], has %d", len(s.Cursor))}
	}
	if e := s.Enrichment; e != nil {
		if err := oneOf(at+".enrichment.kind", e.Kind, kinds); err != nil {
			return err
		}
		for i, sel := range e.Selectors {
			field := fmt.Sprintf("%s.enrichment.selectors[%d]", at, i)
			if err := oneOf(field+".strategy", sel.Strategy, strategies); err != nil {
				return err
			}
			if sel.Value == "" {
				return &SchemaError{field + ".value", "must not be empty"}
			}
		}
	}
	if v := s.Value; v != nil {
		if err := oneOf(at+".value.type", v.Type, valueTypes); err != nil {
			return err
		}
		if v.Type == ValueSecret && v.Raw != "" {
			return &SchemaError{at + ".value.raw", "a secret carries no value past the capture source"}
		}
	}
	return s.validateExtensions(at)
}

// Bounds on schema 1.1's optional fields: a page can make them as long as
// it likes, and a step is held whole in memory.
const (
	maxOptions = 1000
	maxFields  = 500
	maxTexts   = 16
	maxText    = 500
	maxEchoed  = 50
)

func (s *Step) validateExtensions(at string) error {
	if e := s.Enrichment; e != nil {
		if err := validOptions(at+".enrichment.options", e.Options); err != nil {
			return err
		}
		if c := e.Container; c != nil && (c.Role == "" || c.Name == "" || len(c.Role) > maxText || len(c.Name) > maxText) {
			return &SchemaError{at + ".enrichment.container", fmt.Sprintf("needs a role and a name, each at most %d bytes", maxText)}
		}
		if e.Dialog != "" && e.Dialog != DialogDismiss {
			return &SchemaError{at + ".enrichment.dialog", `is "dismiss" or absent`}
		}
		if e.Half != "" && e.Half != HalfStart && e.Half != HalfEnd {
			return &SchemaError{at + ".enrichment.half", `is "start", "end" or absent`}
		}
	}
	if ef := s.Effect; ef != nil {
		if len(ef.Texts) > maxTexts {
			return &SchemaError{at + ".effect.texts", fmt.Sprintf("holds %d texts; at most %d", len(ef.Texts), maxTexts)}
		}
		for i, t := range ef.Texts {
			if len(t) > maxText {
				return &SchemaError{fmt.Sprintf("%s.effect.texts[%d]", at, i), fmt.Sprintf("is longer than %d bytes", maxText)}
			}
		}
		if ef.Status < 0 || ef.Status > 999 {
			return &SchemaError{at + ".effect.status", "must be an HTTP status (100-999) or 0 for none"}
		}
		if ef.Millis < 0 {
			return &SchemaError{at + ".effect.millis", "must not be negative"}
		}
		if len(ef.Echoed) > maxEchoed {
			return &SchemaError{at + ".effect.echoed", fmt.Sprintf("holds %d labels; at most %d", len(ef.Echoed), maxEchoed)}
		}
		for i, l := range ef.Echoed {
			if l == "" || len(l) > maxText {
				return &SchemaError{fmt.Sprintf("%s.effect.echoed[%d]", at, i), fmt.Sprintf("must be a field's label, 1 to %d bytes", maxText)}
			}
		}
	}
	if len(s.Fields) > maxFields {
		return &SchemaError{at + ".fields", fmt.Sprintf("holds %d fields; at most %d", len(s.Fields), maxFields)}
	}
	for i, f := range s.Fields {
		field := fmt.Sprintf("%s.fields[%d]", at, i)
		if f.Role == "" {
			return &SchemaError{field + ".role", "is missing"}
		}
		for j, sel := range f.Selectors {
			sf := fmt.Sprintf("%s.selectors[%d]", field, j)
			if err := oneOf(sf+".strategy", sel.Strategy, strategies); err != nil {
				return err
			}
			if sel.Value == "" {
				return &SchemaError{sf + ".value", "must not be empty"}
			}
		}
		if err := validOptions(field+".options", f.Options); err != nil {
			return err
		}
	}
	return nil
}

func validOptions(at string, opts []Option) error {
	if len(opts) > maxOptions {
		return &SchemaError{at, fmt.Sprintf("holds %d options; at most %d", len(opts), maxOptions)}
	}
	for i, o := range opts {
		if o.Label == "" && o.Value == "" {
			return &SchemaError{fmt.Sprintf("%s[%d]", at, i), "an option needs a label or a value"}
		}
	}
	return nil
}

// Validate checks a whole recording: its identity, version, and every step,
// whose sequence numbers must strictly increase.
func (r *Recording) Validate() error {
	if !ValidRecordingID(r.RecordingID) {
		return &SchemaError{"recording_id", `must look like "rec_<uuid>": one subject token, no dots or wildcards`}
	}
	if major, _, _ := strings.Cut(r.Version, "."); major != "1" {
		return &SchemaError{"version", fmt.Sprintf("%s is not a 1.x schema this build reads", quoteShort(r.Version))}
	}
	if !finite(r.CreatedAt) || r.CreatedAt < 0 {
		return &SchemaError{"created_at", "must be a non-negative number of seconds since the epoch"}
	}
	for i := range r.Steps {
		at := fmt.Sprintf("steps[%d]", i)
		if err := r.Steps[i].validate(at); err != nil {
			return err
		}
		if i > 0 && r.Steps[i].Seq <= r.Steps[i-1].Seq {
			return &SchemaError{at + ".seq", "sequence numbers must strictly increase"}
		}
	}
	return nil
}

// ValidRecordingID reports whether id can name a recording: "rec_" and a
// single subject token, so it can never address another recording's subjects.
func ValidRecordingID(id string) bool {
	return strings.HasPrefix(id, "rec_") && len(id) > len("rec_") && ValidToken(id)
}

// ValidRunID reports whether id can name a replay run: "run_" and a single
// subject token, as replay.NewRunID makes them.
func ValidRunID(id string) bool {
	return strings.HasPrefix(id, "run_") && len(id) > len("run_") && ValidToken(id)
}

func oneOf(field, got string, allowed map[string]bool) error {
	if allowed[got] {
		return nil
	}
	if got == "" {
		return &SchemaError{field, "is missing"}
	}
	return &SchemaError{field, fmt.Sprintf("%s is not one of the schema's values", quoteShort(got))}
}

// quoteShort quotes an enumerated field's bad value for an error message,
// cut short so a misplaced payload cannot ride along in it.
func quoteShort(s string) string {
	const max = 24
	if len(s) > max {
		return fmt.Sprintf("%q...", s[:max])
	}
	return fmt.Sprintf("%q", s)
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
