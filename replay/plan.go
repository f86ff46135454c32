package replay

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// Row is one CSV row to fill: its number from 1, its values by parameter
// name, and its dedupe key (an HMAC of the dedupe columns' values).
type Row struct {
	N      int
	Values map[string]string
	Key    string
}

// Plan is what a run fills: a skill version and its rows.
type Plan struct {
	RunID   string
	SkillID string
	Skill   *skills.Skill
	// Digest names the skill version: a dry run passed for one version
	// does not vouch for another.
	Digest string
	Rows   []Row
	// CSV fingerprints the rows, so a resume runs on the same ones.
	CSV string
	// Artifacts is the run's folder for rows' downloads and screenshots
	// (row-N under it); empty keeps none.
	Artifacts string

	// messages holds what pages said about refused steps and the files
	// steps saved (a pageSaid), by session and command: they may quote a
	// row's values, so they pass from Serve to Run in memory, never
	// through the log.
	messages sync.Map
	// answers holds what a person answered a row's ask steps and secret
	// fields (a map by name, per row): in memory only, never the log.
	answers sync.Map
}

// Digest is the version name of a skill document.
func Digest(doc []byte) string {
	sum := sha256.Sum256(doc)
	return hex.EncodeToString(sum[:])
}

// row returns row n of the plan.
func (p *Plan) row(n int) (Row, bool) {
	if n < 1 || n > len(p.Rows) || p.Rows[n-1].N != n {
		for _, r := range p.Rows {
			if r.N == n {
				return r, true
			}
		}
		return Row{}, false
	}
	return p.Rows[n-1], true
}

// step is step index of row n with the row's values in place.
func (p *Plan) step(n, index int, dryRun bool) (Step, error) {
	r, ok := p.row(n)
	if !ok || index < 0 || index >= len(p.Skill.Steps) {
		return Step{}, fmt.Errorf("no step %d of row %d in this run", index+1, n)
	}
	st := p.Skill.Steps[index] // a copy; its pointers are copied below before a change
	var err error
	values := p.values(r)
	template := st
	expand := func(s *string) {
		if err == nil && *s != "" {
			*s, err = skills.Expand(*s, values)
		}
	}
	expand(&st.If)
	if err == nil && st.If != "" && st.If != "true" {
		// Left out of this row: its value may name an answer the row was
		// never asked for.
		return Step{Row: n, Index: index, Step: st, DryRun: dryRun, Template: template, Last: index == len(p.Skill.Steps)-1}, nil
	}
	expand(&st.Value)
	if st.ReadBack != nil {
		rb := *st.ReadBack
		expand(&rb.Expect)
		st.ReadBack = &rb
	}
	if st.Wait != nil {
		w := *st.Wait
		expand(&w.Value)
		st.Wait = &w
	}
	if len(st.Assert) > 0 {
		st.Assert = slices.Clone(st.Assert)
		for i := range st.Assert {
			expand(&st.Assert[i].Value)
		}
	}
	var echoOf []string
	st.Echo, echoOf = p.echoes(st.Echo, values)
	answers := p.rowAnswers(n)
	if st.Secret {
		st.Value = answers[skills.AnswerName(index)]
	}
	filled, ferr := fillSelectors(&st, values)
	for _, a := range answers {
		filled = append(filled, a) // never quoted in a message that goes to the log
	}
	if err == nil {
		err = ferr
	}
	if err == nil && st.Action == events.ActionNavigate {
		// The row may have filled the URL's scheme: it opens only a web page.
		if uerr := skills.CheckWebURL(st.Value); uerr != nil {
			return Step{}, rowFault(fmt.Sprintf("step %d (navigate): the URL this row fills in is %v", index+1, uerr))
		}
	}
	if err != nil {
		return Step{}, fmt.Errorf("step %d of row %d: %w", index+1, n, err)
	}
	s := Step{Row: n, Index: index, Step: st, DryRun: dryRun, Filled: filled, Last: index == len(p.Skill.Steps)-1,
		Template: template, Values: values, EchoOf: echoOf}
	if p.Artifacts != "" {
		s.Artifacts = filepath.Join(p.Artifacts, fmt.Sprintf("row-%d", n))
	}
	return s, nil
}

// fillSelectors puts the row's values into the step's target and checks,
// and returns the values it used, for Mask.
func fillSelectors(st *skills.Step, row map[string]string) ([]string, error) {
	var used []string
	uses := func(texts ...string) {
		for _, t := range texts {
			names, _ := skills.Placeholders(t)
			for _, n := range names {
				used = append(used, row[n])
			}
		}
	}
	if st.Target != nil {
		uses(selectorTexts(st.Target)...)
		t, err := st.Target.Fill(row)
		if err != nil {
			return nil, err
		}
		st.Target = &t
	}
	for _, c := range []**skills.Check{&st.Expect, &st.When} {
		if *c == nil {
			continue
		}
		uses((*c).Text, (*c).Window)
		if (*c).Element != nil {
			uses(selectorTexts((*c).Element)...)
		}
		filled, err := (*c).Fill(row)
		if err != nil {
			return nil, err
		}
		*c = &filled
	}
	return used, nil
}

// selectorTexts are the texts of s a row may fill.
func selectorTexts(s *selector.Selector) []string {
	var out []string
	for ; s != nil; s = s.In {
		out = append(out, s.Name, s.Window)
		if s.Near != nil {
			out = append(out, s.Near.Label)
		}
	}
	return out
}

// rowFault is a step the row's own values make impossible: the row fails
// there, and the run goes on.
type rowFault string

func (f rowFault) Error() string { return string(f) }

// verification is the skill's verify section with row n's values.
func (p *Plan) verification(n int) (skills.Verification, bool, error) {
	v := p.Skill.Verify
	if v == nil {
		return skills.Verification{}, false, nil
	}
	r, _ := p.row(n)
	out := *v
	var err error
	if out.URL, err = skills.Expand(v.URL, r.Values); err != nil {
		return out, true, err
	}
	if err := skills.CheckWebURL(out.URL); err != nil {
		return out, true, fmt.Errorf("verify: the URL to open is %v", err)
	}
	if out.Expect.Value, err = skills.Expand(v.Expect.Value, r.Values); err != nil {
		return out, true, err
	}
	return out, true, nil
}

func (p *Plan) destructive() bool {
	for _, st := range p.Skill.Steps {
		if st.Destructive {
			return true
		}
	}
	return false
}

// echoes are the row's values a destructive step's echo names, those a
// page shows as typed: a text, an email or a number. A choice's cell may
// be mapped to its option, and a date written otherwise on the page, so
// they prove nothing either way. An empty value shows nowhere: skipped.
//
// of are the placeholders the values come from, in the same order.
func (p *Plan) echoes(echo []string, values map[string]string) (out, of []string) {
	if len(echo) == 0 {
		return nil, nil
	}
	types := map[string]string{}
	for _, prm := range p.Skill.Parameters {
		types[prm.Name] = prm.Type
	}
	for _, e := range echo {
		names, err := skills.Placeholders(e)
		if err != nil || len(names) != 1 {
			continue
		}
		switch types[names[0]] {
		case "text", "email", "number":
		default:
			continue
		}
		if v, err := skills.Expand(e, values); err == nil && strings.TrimSpace(v) != "" {
			out, of = append(out, v), append(of, e)
		}
	}
	return out, of
}
