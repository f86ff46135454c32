package skills

import (
	"fmt"
	"strings"
)

// ParseSuccess reads the person's success answer: conditions joined by
// ";", each url_changed, url_unchanged, form_reset, request_ok, or
// text:, url_contains: or element: with its value.
func ParseSuccess(s string) (Conditions, error) {
	var cs Conditions
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		kind, value, _ := strings.Cut(part, ":")
		kind, value = strings.TrimSpace(kind), strings.TrimSpace(value)
		c := Condition{Kind: kind, Value: Literal(value), Timeout: "10s"}
		switch {
		case valuelessKinds[kind] && value == "":
		case (kind == CondText || kind == CondURLContains || kind == CondElement) && value != "":
		default:
			return nil, fmt.Errorf("%s is not a condition (text:..., url_changed, url_unchanged, url_contains:..., element:..., form_reset, request_ok)", quoteShort(part))
		}
		cs = append(cs, c)
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("no condition given")
	}
	return cs, nil
}
