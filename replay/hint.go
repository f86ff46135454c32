package replay

import "fmt"

// Hint names what a person can do about a row's outcome, or about a run
// that stopped early, that only the front end can word: the CLI names its
// flag (--again, --on-error), another front end its own control. A row's
// Reason says what happened in reprise's terms and never names a flag; its
// Hint says which of the front end's controls would change it.
type Hint string

const (
	// HintNone: nothing but what the reason says.
	HintNone Hint = ""
	// HintAgain: the row was skipped as a record filed before; a run
	// asked to file records again files it.
	HintAgain Hint = "again"
	// HintAgainAnyway: the row may have been filed; a run asked to file
	// records again files it anyway.
	HintAgainAnyway Hint = "again_anyway"
	// HintOnErrorStop: the run stopped at a failed row because it was
	// asked to stop at the first failure.
	HintOnErrorStop Hint = "on_error_stop"
	// HintOnErrorAuto: the run stopped because its failures look
	// systematic (Systematic is in the reason), the default rule.
	HintOnErrorAuto Hint = "on_error_auto"
	// HintResume: nothing of the row was filed; resuming the run queues
	// it again.
	HintResume Hint = "resume"
)

// Systematic is the words of a reason or error under HintOnErrorAuto that
// say the failures look systematic: a front end may name its rule's
// control right after them.
const Systematic = "the failures look systematic"

// CheckStoppedError is a run's first rows, filled for a person to check,
// failing in a way that looks systematic (under OnErrorAuto): nothing was
// submitted.
type CheckStoppedError struct {
	// Why says what the failures have in common; Row and Reason are the
	// last row that failed and why.
	Why    string
	Row    int
	Reason string
}

func (e *CheckStoppedError) Error() string {
	return fmt.Sprintf("%s while being checked (row %d: %s): %s; nothing was submitted: fix the skill or the rows and run again",
		e.Why, e.Row, e.Reason, Systematic)
}
