package interpret

import (
	"fmt"

	"github.com/reprise-dev/reprise/events"
)

// Narrate says what a step did, in plain words, for the person watching
// their own recording in the co-pilot (it shows values, except secrets).
func Narrate(s events.Step) string {
	target, role := "", ""
	if e := s.Enrichment; e != nil {
		target, role = e.Label, e.Role
	}
	value := ""
	if v := s.Value; v != nil {
		value = v.Raw
		if s.Redacted || v.Type == events.ValueSecret {
			value = ""
		}
	}
	where := target
	if where == "" && role != "" {
		where = "a " + role
	}
	if where == "" {
		where = fmt.Sprintf("at %v in %s", s.Cursor, s.ActiveApp)
	}
	switch s.Action {
	case events.ActionNavigate:
		if value == "" && s.Enrichment != nil {
			value = s.Enrichment.URL
		}
		return "Opened " + value
	case events.ActionFill:
		if value == "" {
			return "Filled " + where + " (value hidden)"
		}
		return fmt.Sprintf("Filled %s with %s", where, value)
	case events.ActionSelect:
		return fmt.Sprintf("Chose %s in %s", value, where)
	case events.ActionClick:
		switch {
		case role == "checkbox" && value == "checked":
			return "Checked " + where
		case role == "checkbox" && value == "unchecked":
			return "Unchecked " + where
		case role == "radio":
			return "Picked " + where
		}
		return "Clicked " + where
	case events.ActionSubmit:
		if target == "" {
			return "Submitted the form"
		}
		return "Submitted with " + target
	case events.ActionUpload:
		return fmt.Sprintf("Uploaded %s to %s", value, where)
	}
	return fmt.Sprintf("%s %s", s.Action, where)
}
