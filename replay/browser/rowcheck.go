package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
)

// kept is how page.js remembers a field a row filled (keep), so the row's
// destructive step can read it back again: the step, named for a person,
// and how to find its element again if the page replaced it.
type kept struct {
	Row   int          `json:"row"`
	Index int          `json:"index"`
	What  string       `json:"what"`
	Sels  []jsSelector `json:"sels"`
	Group bool         `json:"group"`
	Proof proof        `json:"proof"`
	// Files are an upload's files, by name and size.
	Files []keptFile `json:"files,omitempty"`
	// Half is the end of a range the step set (start or end).
	Half string `json:"half,omitempty"`
}

type keptFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

func keepOf(st replay.Step, group bool) kept {
	return kept{Row: st.Row, Index: st.Index, What: stepRef(st), Sels: jsSelectors(st.Selectors), Group: group, Proof: proofOf(st), Half: st.Half}
}

// keepFiles remembers the files an upload gave its input, by name and
// size, for the row's read back. An input the page does not let reprise
// name (a picker a button opened) is not remembered: the row's report then
// shows one field fewer read back.
func (e *Executor) keepFiles(ctx context.Context, st replay.Step, paths []string) error {
	k := keepOf(st, false)
	k.Files = []keptFile{}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return failure(fmt.Sprintf("%s: a file of the row can no longer be read", stepRef(st)))
		}
		k.Files = append(k.Files, keptFile{Name: filepath.Base(p), Size: fi.Size()})
	}
	_, err := chromedp.Run(ctx, pageOp[bool](e.world, "keepfiles", map[string]any{"keep": k}))
	return err
}

type rechecked struct {
	Index int    `json:"index"`
	What  string `json:"what"`
	Res   string `json:"res"`
}

// recheckRow reads back, in one page call right before st (the row's
// destructive step), every field the row filled on this page: the value
// typed, the option chosen, the box's state, an upload's files. A dialog
// that reset the form, a script that cleared a file or rewrote a value,
// a framework that re-rendered a field empty: any of them fails the row
// here, before anything is sent, naming the step (never the value).
// held is how many fields held; notes name fields that left the page.
func (e *Executor) recheckRow(ctx context.Context, st replay.Step) (held int, notes []string, err error) {
	res, err := chromedp.Run(ctx, pageOp[[]rechecked](e.world, "recheck", map[string]any{"row": st.Row}, chromedp.EvalAwaitPromise))
	if err != nil {
		return 0, nil, err
	}
	var changed []string
	for _, r := range res {
		switch r.Res {
		case "held":
			held++
		case "gone":
			notes = append(notes, fmt.Sprintf("%s: its field was no longer on the page before %s, so it was not read back again", r.What, stepRef(st)))
		default:
			changed = append(changed, r.What)
		}
	}
	if len(changed) > 0 {
		return held, notes, failure(fmt.Sprintf("%s: not done: read back right before it, %s no longer %s what was filled (the page changed it after it was filled: a dialog, a script or a re-render); nothing was sent",
			stepRef(st), strings.Join(changed, ", "), plural2(len(changed), "holds", "hold")))
	}
	return held, notes, nil
}

func plural2(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
