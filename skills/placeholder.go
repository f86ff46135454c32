package skills

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// snakeCase is the shape of a parameter name: the name is also the
// placeholder's text, so it must be unambiguous inside %...%.
var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// ValidName reports whether name can name a parameter: snake_case ASCII.
func ValidName(name string) bool { return len(name) <= 64 && snakeCase.MatchString(name) }

// errBadPercent is why a value's percent signs do not parse. It names no
// part of the value: values may be personal data.
var errBadPercent = errors.New(`a "%" must open a %name% placeholder (snake_case name) or be doubled as "%%" for a literal percent sign`)

// Placeholders returns the parameter names v refers to, in order of first use.
func Placeholders(v string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	err := scan(v, func(lit string) {}, func(name string) {
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	})
	return names, err
}

// Expand replaces the placeholders in v by the row's values and %% by %.
// A placeholder without a value is an error naming the parameter.
func Expand(v string, row map[string]string) (string, error) {
	var b strings.Builder
	var missing string
	err := scan(v, func(lit string) { b.WriteString(lit) }, func(name string) {
		val, ok := row[name]
		if !ok && missing == "" {
			missing = name
		}
		b.WriteString(val)
	})
	if err != nil {
		return "", err
	}
	if missing != "" {
		return "", fmt.Errorf("no value for parameter %s", missing)
	}
	return b.String(), nil
}

// Literal writes a constant so that it reads back as itself: every % doubled.
func Literal(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// Placeholder writes the placeholder for the parameter name.
func Placeholder(name string) string { return "%" + name + "%" }

// scan walks v, calling lit for literal text and param for each placeholder.
func scan(v string, lit func(string), param func(string)) error {
	for {
		i := strings.IndexByte(v, '%')
		if i < 0 {
			lit(v)
			return nil
		}
		lit(v[:i])
		rest := v[i+1:]
		if strings.HasPrefix(rest, "%") {
			lit("%")
			v = rest[1:]
			continue
		}
		j := strings.IndexByte(rest, '%')
		if j < 0 || !ValidName(rest[:j]) {
			return errBadPercent
		}
		param(rest[:j])
		v = rest[j+1:]
	}
}
