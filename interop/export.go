package interop

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// Formats Export writes.
const (
	ExportChromeRecorder  = "chrome-recorder"
	ExportPuppeteerReplay = "puppeteer-replay"
	ExportPlaywright      = "playwright"
	ExportReprise         = "reprise"
)

// ExportFormats lists them for a flag's help.
var ExportFormats = []string{ExportChromeRecorder, ExportPuppeteerReplay, ExportPlaywright, ExportReprise}

// prelude is the JavaScript the exported scripts share: it reads the CSV
// and maps each row's cells onto what the steps set, as reprise does.
//
//go:embed prelude.js
var prelude string

// jsParameter is a skill parameter as the prelude reads it.
type jsParameter struct {
	Name     string            `json:"name"`
	Column   string            `json:"column"`
	Type     string            `json:"type"`
	Optional bool              `json:"optional"`
	Mapping  map[string]string `json:"mapping,omitempty"`
	Format   string            `json:"format,omitempty"`
	Written  string            `json:"written,omitempty"`
	Options  []jsOption        `json:"options"`
}

type jsOption struct {
	Label string `json:"label"`
	Value string `json:"value,omitempty"`
}

// parametersJS declares the skill's parameters for the prelude.
func parametersJS(s *skills.Skill) string {
	ps := make([]jsParameter, 0, len(s.Parameters))
	for _, p := range s.Parameters {
		opts := []jsOption{}
		for _, o := range s.OptionsOf(p.Name) {
			opts = append(opts, jsOption(o))
		}
		ps = append(ps, jsParameter{Name: p.Name, Column: p.Column, Type: p.Type, Optional: p.Optional, Mapping: p.Options, Format: p.Format, Written: p.Written, Options: opts})
	}
	b, _ := json.MarshalIndent(ps, "", "  ")
	return "const PARAMETERS = " + string(b) + ";\n"
}

// lost says, one line each, what reprise does for this skill that an
// exported script does not: said at the top of the script, never dropped
// silently.
//
// checks says what the script makes of the success checks.
func lost(s *skills.Skill, checks string) []string {
	out := []string{
		"Exactly once: reprise keeps a ledger and never files a row twice, even after a crash; this script files every row each time it runs.",
		"Resume: reprise picks a run up where it stopped; this script starts from the first row.",
	}
	if len(s.DedupeKey) > 0 {
		out = append(out, fmt.Sprintf("Dedupe: reprise skips a row whose %s was already filed; this script does not check.", strings.Join(s.DedupeKey, ", ")))
	}
	var readBacks, asserts, secrets, uploads, waits, whens int
	for _, st := range s.Steps {
		if st.ReadBack != nil {
			readBacks++
		}
		asserts += len(st.Assert)
		if st.Secret {
			secrets++
		}
		if st.Action == events.ActionUpload {
			uploads++
		}
		if st.Wait != nil {
			waits++
		}
		if st.When != nil || st.Expect != nil {
			whens++
		}
	}
	if readBacks > 0 {
		out = append(out, fmt.Sprintf("Read-backs: reprise reads back each of the %d fields it fills and fails the row when one does not hold what the CSV says; this script does not.", readBacks))
	}
	if asserts > 0 {
		out = append(out, fmt.Sprintf("Success checks: reprise reports a row committed only when the %d checks after its submit hold (unknown otherwise); %s", asserts, checks))
	}
	if secrets > 0 {
		out = append(out, "Passwords: reprise asks a person for a password field's value; this script leaves it to you (see the TODO at the step).")
	}
	if uploads > 0 {
		out = append(out, "Uploads: reprise checks each file before the row runs; this script gives the path as the CSV has it.")
	}
	if waits > 0 || whens > 0 {
		out = append(out, "Conditions: the skill's waits and when/expect checks are not expressed here.")
	}
	if s.Verify != nil {
		out = append(out, "Verify: reprise checks on the site whether an interrupted row was filed; this script does not.")
	}
	if s.Browser != nil {
		out = append(out, "Browser: the skill's browser section (profile, allowed domains, certificates, proxy) is not expressed here.")
	}
	return out
}

// comment writes lines as a JavaScript block comment.
func comment(lines []string) string {
	var b strings.Builder
	b.WriteString("/*\n")
	for _, l := range lines {
		b.WriteString(" * " + strings.ReplaceAll(l, "*/", "* /") + "\n")
	}
	b.WriteString(" */\n")
	return b.String()
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// ExportOptions steer the exported scripts.
type ExportOptions struct {
	// CSV is the rows file the exported script reads, as written into it:
	// a path relative to where the script runs, or absolute.
	CSV string
}

// timeoutMillis is a condition's timeout in milliseconds, 0 when it gives
// none (the tool's own default then applies).
func timeoutMillis(c skills.Condition) int64 {
	if d, err := time.ParseDuration(c.Timeout); err == nil && d > 0 {
		return d.Milliseconds()
	}
	return 0
}

// optionValueJS runs in the page: the value of the option of a <select>
// whose label or value is want (exactly, else ignoring case, accents and
// spacing, as reprise matches a cell), null when none is, undefined for
// another element.
const optionValueJS = `function optionValue(e, want) {
  if (e.tagName !== "SELECT") return undefined;
  const fold = (s) => s.normalize("NFD").replace(/\p{Mn}/gu, "").toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  const opts = Array.from(e.options);
  const o = opts.find((o) => o.label === want) || opts.find((o) => o.value === want);
  if (o) return o.value;
  const hits = opts.filter((o) => fold(o.label) === fold(want) || (o.value !== "" && fold(o.value) === fold(want)));
  return hits.length === 1 ? hits[0].value : null;
}
`

// errItems refuses a select step that sets a set of items: reprise makes
// the control hold exactly the row's items; the exports would set the
// whole cell as one option, and a row would be filed without its items or
// not at all.
var errItems = errors.New("it sets a set of items (a tag picker, a multi-select list, a group of boxes), which the exports do not do yet: export it as a reprise skill and replay it with reprise")

// errSegments refuses a fill of a group of fields: a date field drawn as
// segments (React Aria's), which reprise types part by part. The exports
// would fill the group as one text field, which it is not: every row
// would fail there.
var errSegments = errors.New("it types a value into a group of fields (a date written part by part in its segments), which the exports do not do yet: export it as a reprise skill and replay it with reprise")

// segmented reports whether st fills a group of fields.
func segmented(st skills.Step) bool {
	role := st.Role
	if st.Target != nil && st.Target.Role != "" {
		role = st.Target.Role
	}
	return st.Action == events.ActionFill && role == "group"
}
