package skills

import (
	"fmt"
	"net/url"
	"strings"
)

// CheckWebURL says whether u, a URL with its placeholders filled, is one
// replay may open: an http or https page, or about:blank. A javascript:
// URL would run code in the site's page, a file: or chrome: URL reads the
// machine; a CSV cell must not be able to choose either.
func CheckWebURL(u string) error {
	if strings.EqualFold(u, "about:blank") {
		return nil
	}
	p, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("not a URL")
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https":
		if p.Host == "" {
			return fmt.Errorf("an %s URL with no host", p.Scheme)
		}
		return nil
	case "":
		return fmt.Errorf("no scheme: write it with http:// or https://")
	}
	return fmt.Errorf("a %s: URL; replay opens only http and https pages", strings.ToLower(p.Scheme))
}

// checkURLTemplate is CheckWebURL for a URL that may hold placeholders:
// the literal text before the first one is checked now (a scheme written
// there must be http or https), the whole URL at replay once the row has
// filled it. A URL whose placeholders do not parse is left to placeholders.
func checkURLTemplate(field, u string) error {
	var lit strings.Builder
	templated := false
	if scan(u, func(s string) {
		if !templated {
			lit.WriteString(s)
		}
	}, func(string) { templated = true }) != nil {
		return nil
	}
	if !templated {
		if err := CheckWebURL(lit.String()); err != nil {
			return fieldErr(field, "%v", err)
		}
		return nil
	}
	scheme, _, hasScheme := strings.Cut(lit.String(), ":")
	if !hasScheme || strings.ContainsAny(scheme, "/?#") {
		return nil // the scheme comes from the row: checked at replay
	}
	switch strings.ToLower(scheme) {
	case "http", "https":
		return nil
	}
	return fieldErr(field, "a %s: URL; replay opens only http and https pages", strings.ToLower(scheme))
}
