package learn

import (
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// perRowWords mark a label as per-row data: when such a field had the same
// value in every demonstration, that is more likely chance (two customers at
// one company) than a constant, so the person is asked.
var perRowWords = set("name", "first", "last", "given", "family", "surname", "forename", "email", "mail",
	"phone", "mobile", "tel", "telephone", "fax", "amount", "total", "price", "cost", "fee", "sum",
	"date", "dob", "birthday", "birth", "id", "number", "no", "num", "nr", "address", "street", "city",
	"zip", "postal", "postcode", "country", "state", "company", "organization", "organisation",
	"employer", "invoice", "reference", "ref", "quantity", "qty", "account", "iban", "customer",
	"client", "order", "sku", "code", "ssn", "vat", "salary", "age", "username", "contact")

// idWords mark a parameter as identifying a row, for the default dedupe key.
var idWords = set("id", "number", "no", "num", "nr", "ref", "reference", "invoice", "account",
	"sku", "order", "username", "iban", "ssn")

// commitWords start the label of a button that commits a form.
var commitWords = set("save", "submit", "send", "create", "pay", "delete", "remove", "confirm",
	"place", "purchase", "buy", "book", "publish", "post", "transfer", "approve", "sign", "register",
	"apply", "add", "update", "finish", "complete", "order", "checkout", "archive", "ok")

// mutating actions are the ones read back and, with one recording, asked about.
var dataActions = set(events.ActionFill, events.ActionSelect, events.ActionUpload, events.ActionPaste,
	events.ActionClick, events.ActionRun, events.ActionCopy, events.ActionFileOp)

func tokens(label string) []string {
	k := Key(label)
	if k == "" {
		return nil
	}
	return strings.Split(k, "_")
}

func anyIn(label string, words map[string]bool) bool {
	for _, t := range tokens(label) {
		if words[t] {
			return true
		}
	}
	return false
}

// perRow reports whether a field's label says it holds per-row data.
func perRow(label, valueType string) bool {
	switch valueType {
	case events.ValueEmail, events.ValueDate, events.ValueNumber, events.ValueFile:
		return true
	}
	return anyIn(label, perRowWords)
}

// boxRole reports whether the role is a checkbox or switch, whose value is
// its checked state; radioRole reports a radio button.
func boxRole(role string) bool {
	switch roleKey(role) {
	case "checkbox", "switch", "menuitemcheckbox", "togglebutton":
		return true
	}
	return false
}

func radioRole(role string) bool {
	switch roleKey(role) {
	case "radio", "radiobutton", "menuitemradio":
		return true
	}
	return false
}

func roleKey(role string) string {
	r := strings.ToLower(strings.ReplaceAll(role, " ", ""))
	return strings.TrimPrefix(r, "ax")
}

// boolState reads a checkbox value as "true" or "false", ok false when the
// value is not a state.
func boolState(v string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "checked", "yes", "1", "x":
		return "true", true
	case "false", "off", "unchecked", "no", "0", "":
		return "false", true
	}
	return "", false
}

func isBool(v string) bool {
	switch v {
	case "true", "false", "on", "off", "yes", "no", "checked", "unchecked":
		return true
	}
	return false
}

// commitLabel reports whether a button label starts with a commit verb:
// "Save", "Create invoice", "Place order".
func commitLabel(label string) bool {
	t := tokens(label)
	return len(t) > 0 && commitWords[t[0]]
}

// identifying reports whether a parameter identifies a row by itself.
func identifying(p skills.Parameter) bool {
	// An optional value identifies nothing: every row that leaves it
	// empty would be one record.
	if p.Optional {
		return false
	}
	return p.Type == events.ValueEmail || p.Name == "email" || p.Name == "e_mail" || anyIn(p.Name, idWords)
}

// defaultDedupe is the email and id-like parameters, else all of them.
func defaultDedupe(params []skills.Parameter) []string {
	var key, all []string
	for _, p := range params {
		all = append(all, p.Name)
		if identifying(p) {
			key = append(key, p.Name)
		}
	}
	if len(key) > 0 {
		return key
	}
	return all
}

// nameFor makes a snake_case parameter name from a label, falling back to
// the element's id or name selector, then to "field".
func nameFor(label string, sels []events.Selector) string {
	cands := []string{label}
	for _, s := range sels {
		if s.Strategy == events.StrategyID || s.Strategy == events.StrategyName {
			cands = append(cands, strings.TrimPrefix(s.Value, "#"))
		}
	}
	for _, c := range cands {
		var parts []string
		for _, t := range tokens(c) {
			// "E-mail" is email: a lone letter belongs to the next word.
			if n := len(parts); n > 0 && len(parts[n-1]) == 1 && ascii(t) {
				parts[n-1] += t
				continue
			}
			if ascii(t) {
				parts = append(parts, t)
			}
		}
		if len(parts) > 6 {
			parts = parts[:6]
		}
		n := strings.Join(parts, "_")
		if n != "" && n[0] >= '0' && n[0] <= '9' {
			n = "f_" + n
		}
		if skills.ValidName(n) {
			return n
		}
	}
	return "field"
}

func ascii(t string) bool {
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return t != ""
}
