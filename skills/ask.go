package skills

import (
	"fmt"
	"time"
)

// ActionAsk is a step that pauses the row, browser open, until a person
// answers its Prompt (a one-time code, a captcha's text, a password the
// skill never stores): the answer is %As% for the steps after it, and is
// kept out of the log.
const ActionAsk = "ask"

// AskTimeout is how long an ask waits for its answer when it names no
// Timeout: the row fails after it.
const AskTimeout = time.Hour

// AskWait is how long an ask step waits for its answer.
func (st *Step) AskWait() time.Duration {
	if d, err := time.ParseDuration(st.Timeout); err == nil && d > 0 {
		return d
	}
	return AskTimeout
}

// validateAsk checks an ask step and declares its answer for the steps
// after it.
func (st *Step) validateAsk(at string, declared, used map[string]bool) error {
	switch {
	case st.Action != ActionAsk:
		if st.Prompt != "" || st.As != "" {
			return fieldErr(at+".prompt", "only an ask step has a prompt and an answer (as)")
		}
		if st.Timeout != "" {
			return fieldErr(at+".timeout", "only an ask step has a timeout; a wait or an assert has its own")
		}
		return nil
	case st.Prompt == "":
		return fieldErr(at+".prompt", "is missing: what the person is asked, such as \"the code sent to your phone\"")
	case !ValidName(st.As):
		return fieldErr(at+".as", "%s is not a snake_case name: later steps use the answer as %%name%%", quoteShort(st.As))
	case declared[st.As]:
		return fieldErr(at+".as", "%s is already a parameter's or an earlier answer's name", st.As)
	case st.Destructive || len(st.Selectors) > 0 || st.Target != nil || st.Value != "":
		return fieldErr(at+".action", "an ask step only asks: it has no element, value or destructive flag")
	}
	if st.Timeout != "" {
		if d, err := time.ParseDuration(st.Timeout); err != nil || d <= 0 {
			return fieldErr(at+".timeout", "must be a positive duration such as 10m")
		}
	}
	if err := placeholders(at+".prompt", st.Prompt, declared, used); err != nil {
		return err
	}
	declared[st.As] = true
	used[st.As] = true
	return nil
}

// AnswerName is the name a secret step's answer is kept under for the
// row: no skill name can take it (it is not snake_case).
func AnswerName(index int) string { return fmt.Sprintf("#%d", index) }

// How a step answers the JavaScript dialogs it opens (Step.Dialog).
const (
	DialogAccept  = "accept"
	DialogDismiss = "dismiss"
)
