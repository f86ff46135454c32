package consent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/api"
)

// ErrNotConfirmed is returned by Confirm when the person said no or did not
// answer in time.
var ErrNotConfirmed = errors.New("the person did not confirm")

// Confirm asks the person a yes/no question that is not about a recording
// (a grant of the desktop): once, never remembered, through the prompters
// available now, the first answer winning. It returns the prompter that
// got the yes. A no or no answer in time wraps ErrNotConfirmed; nobody to
// ask wraps ErrNoPrompter.
//
// Only prompters a person answers belong here (a dialog on the desktop,
// the daemon's own terminal): the Pending prompter, which any program with
// the CLI's credentials can answer, must not be among a.Prompters.
func (a *Approver) Confirm(ctx context.Context, p api.ConsentPrompt) (string, error) {
	p.Once = true
	var ready []Prompter
	var reasons []string
	for _, pr := range a.Prompters {
		if ok, why := pr.Available(); ok {
			ready = append(ready, pr)
		} else {
			reasons = append(reasons, pr.Name()+": "+why)
		}
	}
	if len(ready) == 0 {
		return "", fmt.Errorf("%w (%s): run the daemon in a terminal or a desktop session", ErrNoPrompter, strings.Join(reasons, "; "))
	}
	d, by, err := a.ask(ctx, ready, p)
	switch {
	case err != nil:
		return "", err
	case by == ByTimeout:
		return "", fmt.Errorf("%w: no answer in %s", ErrNotConfirmed, a.timeout())
	case !d.Approved:
		return "", fmt.Errorf("%w: answered no", ErrNotConfirmed)
	}
	a.logger().Info("confirmed by the person", logPrompter, by)
	return by, nil
}
