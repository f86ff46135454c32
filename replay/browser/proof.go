package browser

import (
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// proof is the step's element as recorded, which page.js's fits compares
// a candidate with: a selector only finds candidates, and one is acted on
// only when its role and accessible name are these. A destructive step
// without a recorded name never takes what a positional selector (an
// XPath, a CSS selector that counts siblings) found alone.
type proof struct {
	Role        string `json:"role,omitempty"`
	Name        string `json:"name,omitempty"`
	Destructive bool   `json:"destructive,omitempty"`
}

// proofOf is what proves st's element: its recorded role and label, the
// row's values put into a label that holds placeholders.
func proofOf(st replay.Step) proof {
	name := st.Label
	if strings.Contains(name, "%") {
		if x, err := skills.Expand(name, st.Values); err == nil {
			name = x
		}
	}
	return proof{Role: st.Role, Name: name, Destructive: st.Destructive}
}

// targetProof is the proof a target's own match needs: none when the
// target names a role and a name (the selector model matched on both), the
// step's recorded role and label otherwise (a target by id or position).
func targetProof(st replay.Step, t selector.Selector) *proof {
	if t.Role != "" && t.Name != "" && t.Name != "*" {
		return nil
	}
	p := proofOf(st)
	return &p
}

// unproven is a candidate page.js refused: the selector (its index among
// those tried) that found exactly one element, and what that element is.
type unproven struct {
	At   int    `json:"at"`
	Role string `json:"role"`
	Name string `json:"name"`
}

// refusedText says, for notFound, what each refused candidate was, masked
// of the row's values: `xpath /html[1]/...: 1 match, not the step's element
// (button "Delete everything")`.
func (u unproven) String() string {
	return fmt.Sprintf("1 match, not the step's element (%s %q)", u.Role, u.Name)
}

// markUnproven flags, in tried, the attempts whose one match was refused.
// offset is where the page's counts start in tried (after a target).
func markUnproven(tried []replay.Attempt, offset int, us []unproven) {
	for _, u := range us {
		if i := offset + u.At; i >= 0 && i < len(tried) {
			tried[i].Unproven = true
		}
	}
}
