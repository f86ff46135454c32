package heal

import (
	"fmt"
	"slices"

	"github.com/reprise-dev/reprise/skills"
)

// Revise returns the skill with the changes a model made written in: each
// healed step finds its element by the new target first (its recorded
// selectors stay as fallbacks), and each click the model made before a
// step becomes a step of its own, run only when its element is there (a
// cookie banner shows once). The first change of each step wins; a
// change for a step the skill no longer has is an error.
func Revise(s *skills.Skill, changes []Change) (*skills.Skill, error) {
	out := *s
	out.Steps = slices.Clone(s.Steps)
	byStep := map[int]Change{}
	for _, c := range changes {
		if c.Step < 0 || c.Step >= len(s.Steps) {
			return nil, fmt.Errorf("a healed change names step %d; the skill has %d", c.Step+1, len(s.Steps))
		}
		if _, ok := byStep[c.Step]; !ok {
			byStep[c.Step] = c
		}
	}
	steps := make([]int, 0, len(byStep))
	for i := range byStep {
		steps = append(steps, i)
	}
	slices.Sort(steps)
	for _, i := range slices.Backward(steps) {
		c := byStep[i]
		t := c.Target
		out.Steps[i].Target = &t
		var before []skills.Step
		for _, b := range c.Before {
			sel := b
			when := b
			before = append(before, skills.Step{Action: "click", Target: &sel,
				When: &skills.Check{Element: &when, Within: "2s"}})
		}
		out.Steps = slices.Insert(out.Steps, i, before...)
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("the healed revision does not validate: %w", err)
	}
	return &out, nil
}
