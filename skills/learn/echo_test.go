package learn

import (
	"slices"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

// TestEcho checks which parameters a destructive step's echo holds: those
// whose field every demonstration's page showed after the step, in the
// parameters' order, never a constant, a secret or a file, and nothing
// when a recording observed no echo at all.
func TestEcho(t *testing.T) {
	const dir = "testdata/generalize/echo_in_every_demo"
	save := func(r *events.Recording) *events.Step { return &r.Steps[len(r.Steps)-1] }
	fill := func(r *events.Recording, label string) *events.Step {
		for i := range r.Steps {
			if e := r.Steps[i].Enrichment; e != nil && e.Label == label {
				return &r.Steps[i]
			}
		}
		t.Fatalf("no step labelled %s", label)
		return nil
	}
	cases := []struct {
		name    string
		confirm map[string]string
		edit    func(recs []events.Recording)
		// noSample builds without the sample CSV, whose rows would
		// refuse a constant city.
		noSample bool
		want     []string
	}{
		{name: "city in one demonstration only", want: []string{"%first_name%", "%email%"}},
		{name: "city in both", edit: func(recs []events.Recording) {
			e := save(&recs[1]).Effect
			e.Echoed = append(e.Echoed, "City")
		}, want: []string{"%first_name%", "%email%", "%city%"}},
		{name: "labels compared loosely", edit: func(recs []events.Recording) {
			save(&recs[1]).Effect.Echoed = []string{"EMAIL:", "first  name *", "City"}
		}, want: []string{"%first_name%", "%email%", "%city%"}},
		{name: "an older recording without echoed", edit: func(recs []events.Recording) {
			save(&recs[1]).Effect.Echoed = nil
		}},
		{name: "a recording that saw no effect", edit: func(recs []events.Recording) {
			save(&recs[0]).Effect = nil
		}},
		{name: "the email shown through its confirmation field only", edit: func(recs []events.Recording) {
			save(&recs[1]).Effect.Echoed = []string{"First Name", "Confirm email"}
		}, want: []string{"%first_name%", "%email%"}},
		{name: "a constant is never echoed", confirm: map[string]string{"city": ConstAnswer}, noSample: true, edit: func(recs []events.Recording) {
			fill(&recs[1], "City").Value.Raw = "Springfield"
			e := save(&recs[1]).Effect
			e.Echoed = append(e.Echoed, "City")
		}, want: []string{"%first_name%", "%email%", "%confirm_email%"}}, // without the CSV, the two email fields are two parameters
		{name: "a secret is never echoed", confirm: map[string]string{"column:city": IgnoreAnswer}, edit: func(recs []events.Recording) {
			for k := range recs {
				s := fill(&recs[k], "City")
				s.Value.Raw, s.Value.Type, s.Redacted = "", events.ValueSecret, true
				save(&recs[k]).Effect.Echoed = []string{"First Name", "Email", "City"}
			}
		}, want: []string{"%first_name%", "%email%"}},
		{name: "a file is never echoed", confirm: map[string]string{"column:city": IgnoreAnswer}, edit: func(recs []events.Recording) {
			for k := range recs {
				s := fill(&recs[k], "City")
				s.Action, s.Value.Type = events.ActionUpload, events.ValueFile
				save(&recs[k]).Effect.Echoed = []string{"First Name", "Email", "City"}
			}
		}, want: []string{"%first_name%", "%email%"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs, opts := loadCase(t, dir)
			if tc.edit != nil {
				tc.edit(recs)
			}
			opts.Confirm = tc.confirm
			if tc.noSample {
				opts.Header, opts.SampleRows = nil, nil
			}
			d, err := Generalize(recs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Questions) > 0 {
				t.Fatalf("questions %v; want none", d.Questions)
			}
			s, err := d.Final()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, st := range s.Steps {
				if st.Destructive {
					got = st.Echo
				} else if len(st.Echo) > 0 {
					t.Errorf("step %s %s echoes %v; only a destructive step may", st.Action, st.Label, st.Echo)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("echo = %q; want %q", got, tc.want)
			}
		})
	}
}

// TestEchoLastSetter checks that a label the page echoed credits the step
// that last set a field of that label: on a wizard whose second page asks
// for a contact's first name after the first page's, the second is what
// the browser compared at the commit.
func TestEchoLastSetter(t *testing.T) {
	recs, opts := loadCase(t, "testdata/generalize/echo_in_every_demo")
	opts.Header, opts.SampleRows = nil, nil
	for k := range recs {
		steps := recs[k].Steps
		// navigate, First Name, Email, Confirm email, City, Save becomes
		// navigate, First Name, Email, Next, First Name (the contact's),
		// City, Save.
		next := steps[5]
		next.Action = events.ActionSubmit
		next.Effect, next.Fields = nil, nil
		next.Enrichment = &events.Enrichment{Kind: "dom", Selectors: []events.Selector{{Strategy: events.StrategyRoleText, Value: "button[name='Next']"}},
			Role: "button", Label: "Next", URL: steps[5].Enrichment.URL}
		contact := steps[1]
		contact.Value = &events.Value{Raw: []string{"Grace", "Hedy"}[k], Type: events.ValueText}
		save := steps[5]
		save.Effect.Echoed = []string{"First Name", "City"}
		all := []events.Step{steps[0], steps[1], steps[2], next, contact, steps[4], save}
		for i := range all {
			all[i].Seq = uint64(i + 1)
		}
		recs[k].Steps = all
	}
	d, err := Generalize(recs, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, st := range d.Skill.Steps {
		if st.Destructive {
			got = append(got, st.Echo)
		}
	}
	if len(got) != 1 || !slices.Equal(got[0], []string{"%first_name_2%", "%city%"}) {
		t.Errorf("echoes = %q; want one, [%%first_name_2%% %%city%%]: the contact's first name, not the first page's", got)
	}
}
