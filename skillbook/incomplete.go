package skillbook

import (
	"context"
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skills/learn"
)

// incompletePrefix keys the answer about a recording that lost steps:
// incomplete:<recording id>=yes builds from it anyway.
const incompletePrefix = "incomplete:"

// askIncomplete adds a question for each recording that lost steps when it
// was made and whose answer is not yes: a skill built from it may skip what
// the lost steps did, and the person alone can say the rest is enough.
func (s *Service) askIncomplete(ctx context.Context, recIDs []string, answers map[string]string, draft *learn.Draft) *ops.Error {
	for k, v := range answers {
		if !strings.EqualFold(strings.TrimSpace(v), "yes") && !strings.EqualFold(strings.TrimSpace(v), "no") {
			return ops.Errorf(ops.CodeInvalidRequest, "answer %s with yes or no", k)
		}
	}
	if s.Lost == nil {
		return nil
	}
	for _, id := range recIDs {
		lost, err := s.Lost(ctx, id)
		if err != nil {
			return asOpsError(err)
		}
		if lost == 0 {
			continue
		}
		key := incompletePrefix + id
		switch strings.ToLower(strings.TrimSpace(answers[key])) {
		case "yes":
			draft.Notes = append(draft.Notes, fmt.Sprintf("built from %s although it lost %d step(s) when it was made, as answered", id, lost))
			continue
		case "no":
			return ops.Errorf(ops.CodeInvalidRequest, "recording %s lost %d step(s) when it was made and you answered no: record the task again, or build without it", id, lost)
		}
		draft.Questions = append(draft.Questions, learn.Question{Kind: learn.AskIncomplete, Parameter: key,
			Text: fmt.Sprintf("Recording %s lost %d step(s) when it was made (they came faster than the store took them, or the disk was full): the skill may miss what they did. Build from it anyway? Answer %s=yes, or record the task again", id, lost, key)})
	}
	return nil
}
