package skills

import (
	"fmt"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/selector"
)

// Error is one problem in a skill document: the field it is at, as a path
// such as "steps[2].action", and the line when the skill was parsed from
// YAML. It quotes enumerated words (actions, kinds), never a field's value.
type Error struct {
	Line    int // 0 when the skill was not parsed from text
	Field   string
	Problem string
}

func (e *Error) Error() string {
	msg := e.Problem
	if e.Field != "" {
		msg = e.Field + ": " + msg
	}
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, msg)
	}
	return msg
}

func fieldErr(field, format string, args ...any) *Error {
	return &Error{Field: field, Problem: fmt.Sprintf(format, args...)}
}

var (
	// parameterTypes are the SPEC 4 value types a CSV cell can hold: a
	// secret never comes from a CSV.
	parameterTypes = set(events.ValueText, events.ValueEmail, events.ValueNumber, events.ValueDate,
		events.ValueEnum, events.ValueFile, TypeBoolean, TypeList)
	actions = set(events.ActionNavigate, events.ActionFill, events.ActionSelect, events.ActionClick,
		events.ActionSubmit, events.ActionUpload, events.ActionLaunchApp, events.ActionFocusWindow,
		events.ActionCopy, events.ActionPaste, events.ActionRun, events.ActionFileOp,
		events.ActionWait, events.ActionAssert, ActionExpect, ActionAsk)
	strategies = set(events.StrategyID, events.StrategyName, events.StrategyLabel,
		events.StrategyRoleText, events.StrategyCSS, events.StrategyXPath)
	readBackKinds  = set(ReadBackValue, ReadBackSelected, ReadBackChecked, ReadBackSet)
	conditionKinds = set(CondURLChanged, CondURLUnchanged, CondURLContains, CondText, CondElement,
		CondFormReset, CondRequestOK)
	// valuelessKinds are the condition kinds that take no value.
	valuelessKinds = set(CondURLChanged, CondURLUnchanged, CondFormReset, CondRequestOK)
	// destructiveActions are the click-like verbs that can commit a form.
	destructiveActions = set(events.ActionSubmit, events.ActionClick)
)

// Validate checks that the skill can run: a supported version and a name;
// unique snake_case parameters, each joined to a column and used by a step;
// placeholders that name declared parameters; a dedupe key of parameters;
// SPEC verbs and selector strategies; destructive only on submit and click;
// and no value on a secret step. It returns the first problem found.
func (s *Skill) Validate() error {
	if s.Version != CurrentVersion {
		return fieldErr("version", "version %d is not supported; this build reads version %d", s.Version, CurrentVersion)
	}
	if s.Name == "" {
		return fieldErr("name", "is missing: give the skill a name")
	}
	declared := map[string]bool{}
	for i, p := range s.Parameters {
		at := fmt.Sprintf("parameters[%d]", i)
		switch {
		case !ValidName(p.Name):
			return fieldErr(at+".name", "%s is not a snake_case name such as first_name", quoteShort(p.Name))
		case declared[p.Name]:
			return fieldErr(at+".name", "parameter %s is declared twice", p.Name)
		case p.Column == "":
			return fieldErr(at+".column", "parameter %s is joined to no CSV column", p.Name)
		case !parameterTypes[p.Type]:
			return fieldErr(at+".type", "%s is not a parameter type (text, email, number, date, enum, boolean, file, list)", quoteShort(p.Type))
		}
		if p.Format != "" && (p.Type != events.ValueDate || !ValidDateFormat(p.Format)) {
			return fieldErr(at+".format", "a format writes a date parameter, with YYYY, YY, MMMM, MMM, MM, M, DD or D")
		}
		if p.Written != "" && (p.Type != events.ValueDate || !ValidDateFormat(p.Written)) {
			return fieldErr(at+".written", "says how the column writes a date parameter, with YYYY, YY, MMMM, MMM, MM, M, DD or D")
		}
		if p.Type == TypeList && p.Separator == "" {
			return fieldErr(at+".separator", "is missing: a list parameter says what splits its cell into items, such as \"; \"")
		}
		if p.Separator != "" && (p.Type != TypeList || strings.TrimSpace(p.Separator) == "" && p.Separator != "\n") {
			return fieldErr(at+".separator", "splits a list parameter's cell: a mark such as \"; \", \",\" or \"|\", or \"\\n\" for one item per line")
		}
		for cell, to := range p.Options {
			switch {
			case strings.TrimSpace(cell) == "":
				return fieldErr(at+".options", "a cell to map must not be blank")
			case p.Type == TypeBoolean && to != "true" && to != "false":
				return fieldErr(at+".options", "a boolean's cells map to true or false")
			case p.Type != TypeBoolean && p.Type != events.ValueEnum && p.Type != TypeList:
				return fieldErr(at+".options", "only an enum, list or boolean parameter maps cells to options")
			}
		}
		declared[p.Name] = true
	}
	columns := map[string]bool{}
	for _, p := range s.Parameters {
		columns[p.Column] = true
	}
	for i, ig := range s.Ignore {
		at := fmt.Sprintf("ignore[%d].column", i)
		switch {
		case (strings.TrimSpace(ig.Column) == "") == (strings.TrimSpace(ig.Field) == ""):
			return fieldErr(fmt.Sprintf("ignore[%d]", i), "give either a column no step uses or a field no column fills")
		case ig.Column == "":
			continue
		case columns[ig.Column]:
			return fieldErr(at, "column %q is a parameter's: it cannot also be ignored", ig.Column)
		}
		columns[ig.Column] = true
	}
	if err := validAI("ai", s.AI); err != nil {
		return err
	}
	if err := s.Browser.validate(); err != nil {
		return err
	}
	used := map[string]bool{}
	if len(s.Steps) == 0 {
		return fieldErr("steps", "a skill needs at least one step")
	}
	for i := range s.Steps {
		if err := s.Steps[i].validate(fmt.Sprintf("steps[%d]", i), declared, used); err != nil {
			return err
		}
		if err := s.validIf(i); err != nil {
			return err
		}
		if st := s.Steps[i]; st.If != "" {
			// A column that decides which steps run is used.
			used[strings.Trim(st.If, "%")] = true
		}
	}
	if v := s.Verify; v != nil {
		if v.URL == "" {
			return fieldErr("verify.url", "is missing: the page that shows whether a row is filed")
		}
		if err := checkURLTemplate("verify.url", v.URL); err != nil {
			return err
		}
		if err := placeholders("verify.url", v.URL, declared, used); err != nil {
			return err
		}
		if v.Expect.Kind == CondURLChanged {
			return fieldErr("verify.expect.kind", "url_changed cannot tell whether a row is filed: use text, element or url_contains")
		}
		if err := v.Expect.validate("verify.expect", declared, used); err != nil {
			return err
		}
	}
	for i, p := range s.Parameters {
		if !used[p.Name] {
			return fieldErr(fmt.Sprintf("parameters[%d].name", i), "parameter %s is used by no step: remove it or use %%%s%%", p.Name, p.Name)
		}
	}
	return s.validateDedupe(declared)
}

func (s *Skill) validateDedupe(declared map[string]bool) error {
	if len(s.Parameters) > 0 && len(s.DedupeKey) == 0 {
		return fieldErr("dedupe_key", "is missing: name the parameters that identify a row, so each row is filed once")
	}
	seen := map[string]bool{}
	for i, k := range s.DedupeKey {
		at := fmt.Sprintf("dedupe_key[%d]", i)
		if !declared[k] {
			return fieldErr(at, "%s is not a declared parameter", quoteShort(k))
		}
		if seen[k] {
			return fieldErr(at, "%s is listed twice", k)
		}
		seen[k] = true
	}
	return nil
}

func (st *Step) validate(at string, declared, used map[string]bool) error {
	if !actions[st.Action] {
		if st.Action == "" {
			return fieldErr(at+".action", "is missing")
		}
		return fieldErr(at+".action", "unknown action %s", quoteShort(st.Action))
	}
	if err := validAI(at+".ai", st.AI); err != nil {
		return err
	}
	if err := st.Recorded.validate(at, declared, used); err != nil {
		return err
	}
	for i, sel := range st.Selectors {
		sat := fmt.Sprintf("%s.selectors[%d]", at, i)
		if !strategies[sel.Strategy] {
			return fieldErr(sat+".strategy", "unknown strategy %s (id, name, label, role+text, css, xpath)", quoteShort(sel.Strategy))
		}
		if sel.Value == "" {
			return fieldErr(sat+".value", "is empty")
		}
		// Selectors are not filled from the row: a row's cell must not
		// choose which element replay acts on.
		if names, err := Placeholders(sel.Value); err == nil {
			for _, n := range names {
				if declared[n] {
					return fieldErr(sat+".value", "holds the placeholder %%%s%%: a selector is matched as written, never filled from a row", n)
				}
			}
		}
	}
	if st.Target != nil {
		if err := validateTarget(at+".target", st.Target, declared, used); err != nil {
			return err
		}
	}
	if n := len(st.Floor.Cursor); n != 0 && n != 2 {
		return fieldErr(at+".floor.cursor", "must hold two coordinates [x, y], has %d", n)
	}
	if st.Action == events.ActionNavigate {
		if st.Value == "" {
			return fieldErr(at+".value", "a navigate step needs the URL to open")
		}
		if err := checkURLTemplate(at+".value", st.Value); err != nil {
			return err
		}
	}
	if err := st.validateAsk(at, declared, used); err != nil {
		return err
	}
	if st.Dialog != "" && st.Dialog != DialogAccept && st.Dialog != DialogDismiss {
		return fieldErr(at+".dialog", "unknown answer %s (accept, dismiss)", quoteShort(st.Dialog))
	}
	if st.Half != "" && (st.Action != events.ActionFill || st.Half != events.HalfStart && st.Half != events.HalfEnd) {
		return fieldErr(at+".half", "is start or end, on a fill step that sets one end of a range")
	}
	if st.Action == events.ActionUpload && st.Value == "" {
		return fieldErr(at+".value", "an upload step needs its files: a %%column%% of paths or globs, one per line, or a constant")
	}
	if st.Output && st.Action != events.ActionClick && st.Action != events.ActionSubmit && st.Action != events.ActionNavigate {
		return fieldErr(at+".output", "only a click, submit or navigate step starts a download to keep as the row's output")
	}
	if st.Destructive && !destructiveActions[st.Action] {
		return fieldErr(at+".destructive", "only a submit or click step can be destructive, not %s", st.Action)
	}
	if st.Secret {
		if st.Action != events.ActionFill {
			return fieldErr(at+".secret", "only a fill step can be secret")
		}
		if st.Value != "" || st.ReadBack != nil {
			return fieldErr(at+".value", "a secret step carries no value and no read-back: the person types it at replay")
		}
	}
	if err := placeholders(at+".value", st.Value, declared, used); err != nil {
		return err
	}
	if rb := st.ReadBack; rb != nil {
		if !readBackKinds[rb.Kind] {
			return fieldErr(at+".read_back.kind", "unknown read-back %s (value, selected, checked)", quoteShort(rb.Kind))
		}
		if err := placeholders(at+".read_back.expect", rb.Expect, declared, used); err != nil {
			return err
		}
	}
	for i, o := range st.Options {
		if o.Label == "" && o.Value == "" {
			return fieldErr(fmt.Sprintf("%s.options[%d]", at, i), "an option needs a label or a value")
		}
	}
	if err := st.Wait.validate(at+".wait", declared, used); err != nil {
		return err
	}
	switch {
	case st.Action == ActionExpect && st.Expect == nil:
		return fieldErr(at+".expect", "an expect step needs what to expect: text, element or window")
	case st.Action != ActionExpect && st.Expect != nil:
		return fieldErr(at+".expect", "an expect is a step of its own: put it after this %s step", st.Action)
	case st.When != nil && st.Destructive:
		// A row whose filing step may not run could never be proved filed.
		return fieldErr(at+".when", "a step that files the row cannot be skipped by a when")
	}
	if err := st.Expect.validate(at+".expect", declared, used); err != nil {
		return err
	}
	if err := st.When.validate(at+".when", declared, used); err != nil {
		return err
	}
	for i := range st.Assert {
		if err := st.Assert[i].validate(fmt.Sprintf("%s.assert[%d]", at, i), declared, used); err != nil {
			return err
		}
	}
	if len(st.Echo) > 0 && !st.Destructive {
		return fieldErr(at+".echo", "only a step that files the row has values echoed after it")
	}
	for i, e := range st.Echo {
		names, _ := Placeholders(e)
		if len(names) == 0 {
			return fieldErr(fmt.Sprintf("%s.echo[%d]", at, i), "an echo is a row's value: write it as a %%placeholder%%")
		}
		if err := placeholders(fmt.Sprintf("%s.echo[%d]", at, i), e, declared, used); err != nil {
			return err
		}
	}
	return nil
}

func (c *Condition) validate(at string, declared, used map[string]bool) error {
	if c == nil {
		return nil
	}
	if !conditionKinds[c.Kind] {
		return fieldErr(at+".kind", "unknown kind %s (url_changed, url_unchanged, url_contains, text, element, form_reset, request_ok)", quoteShort(c.Kind))
	}
	if !valuelessKinds[c.Kind] && c.Value == "" {
		return fieldErr(at+".value", "a %s condition needs a value", c.Kind)
	}
	if c.Timeout != "" {
		if d, err := time.ParseDuration(c.Timeout); err != nil || d <= 0 {
			return fieldErr(at+".timeout", "must be a positive duration such as 10s")
		}
	}
	return placeholders(at+".value", c.Value, declared, used)
}

func placeholders(at, v string, declared, used map[string]bool) error {
	names, err := Placeholders(v)
	if err != nil {
		return fieldErr(at, "%v", err)
	}
	for _, n := range names {
		if !declared[n] {
			return fieldErr(at, "placeholder %%%s%% names no declared parameter", n)
		}
		used[n] = true
	}
	return nil
}

// quoteShort quotes an enumerated field's bad value, cut short so a
// misplaced payload cannot ride along in an error.
func quoteShort(s string) string {
	const max = 24
	if len(s) > max {
		return fmt.Sprintf("%q...", s[:max])
	}
	return fmt.Sprintf("%q", s)
}

// ValidType reports whether t can be a parameter's type: a SPEC 4 value
// type a CSV cell can hold, boolean or list.
func ValidType(t string) bool { return parameterTypes[t] }

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// validateTarget checks a step's selector, and that the placeholders it is
// filled with are parameters: a target's name, window, near label and
// container may come from the row (an id and an app stay as written).
func validateTarget(at string, t *selector.Selector, declared, used map[string]bool) error {
	if err := t.Validate(); err != nil {
		return fieldErr(at, "%s", strings.TrimPrefix(err.Error(), "selector: "))
	}
	for sel := t; sel != nil; sel = sel.In {
		texts := []string{sel.Name, sel.Window}
		if sel.Near != nil {
			texts = append(texts, sel.Near.Label)
		}
		for _, text := range texts {
			names, err := Placeholders(text)
			if err != nil {
				return fieldErr(at, "%v", err)
			}
			for _, n := range names {
				if !declared[n] {
					return fieldErr(at, "holds %%%s%%, which is no parameter of the skill", n)
				}
				used[n] = true
			}
		}
	}
	return nil
}

// validIf checks a step's if: one boolean parameter's placeholder.
func (s *Skill) validIf(i int) error {
	v := s.Steps[i].If
	if v == "" {
		return nil
	}
	name, ok := strings.CutPrefix(v, "%")
	name, ok2 := strings.CutSuffix(name, "%")
	if ok && ok2 {
		for _, p := range s.Parameters {
			if p.Name == name && p.Type == TypeBoolean {
				return nil
			}
		}
	}
	return fieldErr(fmt.Sprintf("steps[%d].if", i), "names a boolean parameter, as %%gift_wrap%%: the step runs in the rows where it is true")
}
