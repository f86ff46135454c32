package skills

import "fmt"

// How much a model decides for a step (the `ai` setting of a skill and of
// a step): AINever replays the recording and fails a row at the first
// miss; AIOnMiss replays while the recording matches and lets the model
// go on from the first miss; AIEveryRun lets the model find the step's
// element every run.
const (
	AINever    = "never"
	AIOnMiss   = "on_miss"
	AIEveryRun = "every_run"
)

var aiModes = set(AINever, AIOnMiss, AIEveryRun)

// AIFor is how much the model decides for step i: the step's own `ai`,
// else the skill's, else AINever, the default of a skill built from
// demonstrations.
func (s *Skill) AIFor(i int) string {
	if i >= 0 && i < len(s.Steps) && s.Steps[i].AI != "" {
		return s.Steps[i].AI
	}
	if s.AI != "" {
		return s.AI
	}
	return AINever
}

// ModelSteps returns the indexes of the steps whose `ai` lets a model
// decide: a skill with any needs a model configured before it runs.
func (s *Skill) ModelSteps() []int {
	var out []int
	for i, st := range s.Steps {
		if s.AIFor(i) != AINever && Healable(st) {
			out = append(out, i)
		}
	}
	return out
}

// healable are the actions a model can find an element for: the ones that
// act on one element of a page or a window.
var healable = set("fill", "select", "click", "submit")

// Healable says whether a model can find st's element: a step on one
// element, and not a password (which only the person types).
func Healable(st Step) bool { return healable[st.Action] && !st.Secret }

func validAI(at, v string) error {
	if v != "" && !aiModes[v] {
		return fieldErr(at, "%s is not how much AI decides: never, on_miss or every_run", quoteShort(v))
	}
	return nil
}

// NeedsModelError is the error for a skill whose steps let a model decide
// when no model is configured: it names the first such step.
func NeedsModelError(s *Skill) error {
	steps := s.ModelSteps()
	if len(steps) == 0 {
		return nil
	}
	i := steps[0]
	return fmt.Errorf("step %d (%s) has ai: %s, but no model is configured: set \"model\" (or \"local_model\") in config.json, or set ai: never",
		i+1, s.Steps[i].Action, s.AIFor(i))
}
