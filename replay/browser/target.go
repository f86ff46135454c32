package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
)

// listed is one element of page.js's elements answer.
type listed struct {
	Role   string  `json:"role"`
	Name   string  `json:"name"`
	ID     string  `json:"id"`
	Value  string  `json:"value"`
	Path   string  `json:"path"`
	Label  int     `json:"label"`
	Parent int     `json:"parent"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	W      float64 `json:"w"`
	H      float64 `json:"h"`
	Secure bool    `json:"secure"`
	Submit bool    `json:"submit"`
}

type listing struct {
	Ready bool     `json:"ready"`
	Title string   `json:"title"`
	Els   []listed `json:"els"`
	More  bool     `json:"more"`
}

// Page is the current page as the selector model reads it.
type Page struct {
	Title string
	Tree  selector.Tree
	// More says the page has more elements than the limit let through.
	More bool
	// Ready is false while the document is still loading.
	Ready bool
	// Secure and Submit say, by the index in Tree, which elements are
	// password fields and which submit their form: what a model's choice
	// is checked against beside its role and name.
	Secure, Submit []bool
}

// MaxElements bounds a resolution's listing: far more than a form shows,
// few enough that a runaway page cannot stall a step.
const MaxElements = 5000

// Elements lists the visible elements of the page, in tree order, across
// open shadow roots and same-origin frames: controls, elements with a
// role, and text. It is what a target is matched against, and what
// `reprise elements` prints.
func (e *Executor) Elements(ctx context.Context, limit int) (Page, error) {
	cctx, stop := e.bind(ctx)
	defer stop()
	return e.elements(cctx, limit, reading{Paths: true, Values: true})
}

// Look is what a model is shown of the page: its URL and its elements
// (their values read too, which the caller keeps to itself).
func (e *Executor) Look(ctx context.Context) (url string, p Page, err error) {
	cctx, stop := e.bind(ctx)
	defer stop()
	if err := e.waitLoaded(cctx, 10*time.Second); err != nil {
		return "", Page{}, err
	}
	if url, err = chromedp.Run(cctx, chromedp.Location()); err != nil {
		return "", Page{}, err
	}
	p, err = e.elements(cctx, MaxElements, reading{Paths: true, Values: true})
	return url, p, err
}

// reading says what a listing reads: XPaths and values for a person or a
// check; and, for a resolution, only the elements of the roles in Named and
// any whose id is one of IDs (every element when Named is nil), since Match can use
// no other.
type reading struct {
	Paths  bool     `json:"paths"`
	Values bool     `json:"values"`
	Named  []string `json:"named"`
	IDs    []string `json:"ids"`
	Limit  int      `json:"limit"`
}

func (e *Executor) elements(ctx context.Context, limit int, r reading) (Page, error) {
	r.Limit = limit
	text, err := chromedp.Run(ctx, pageOp[string](e.world, "elements", r))
	if err != nil {
		return Page{}, err
	}
	var l listing
	if err := json.Unmarshal([]byte(text), &l); err != nil {
		return Page{}, fmt.Errorf("the page's elements: %w", err)
	}
	p := Page{Title: l.Title, More: l.More, Ready: l.Ready, Tree: make(selector.Tree, len(l.Els)),
		Secure: make([]bool, len(l.Els)), Submit: make([]bool, len(l.Els))}
	for i, el := range l.Els {
		p.Secure[i], p.Submit[i] = el.Secure, el.Submit
		p.Tree[i] = selector.Element{
			Role: selector.RoleOf(el.Role), Name: el.Name, ID: el.ID, Value: el.Value,
			Label: el.Label, Parent: el.Parent, Window: l.Title, Path: el.Path,
			Bounds: image.Rect(px(el.X), px(el.Y), px(el.X+el.W), px(el.Y+el.H)),
		}
	}
	return p, nil
}

func px(f float64) int { return int(math.Round(f)) }

// read is what a check looks at: the page's title and elements.
func (e *Executor) read(ctx context.Context) (string, selector.Tree, error) {
	p, err := e.elements(ctx, MaxElements, reading{Values: true})
	if err == nil && !p.Ready {
		err = errors.New("the page is still loading")
	}
	return p.Title, p.Tree, err
}

// Resolve lists the page and matches s there: the tree, and the index of
// the one element s names or a *selector.Miss.
func (e *Executor) Resolve(ctx context.Context, s selector.Selector) (selector.Tree, int, error) {
	p, err := e.Elements(ctx, MaxElements)
	if err != nil {
		return nil, -1, err
	}
	i, err := selector.Match(s, p.Tree)
	return p.Tree, i, err
}

// findTarget resolves the step's target and makes its element the target
// of the page's next ops. n is how many elements it matched (0 for none,
// or a container or id that missed), for the outcome's Tried.
//
// pf, when not nil, is the proof the matched element must give (a target
// that does not name a role and a name proves nothing by its match).
func (e *Executor) findTarget(ctx context.Context, s selector.Selector, group bool, pf *proof) (f found, n int, err error) {
	p, err := e.elements(ctx, MaxElements, readingFor(s))
	if err != nil || !p.Ready {
		return found{Hit: -1}, 0, err
	}
	i, err := selector.Match(s, p.Tree)
	if err != nil {
		var m *selector.Miss
		if errors.As(err, &m) && m.Code == selector.CodeAmbiguous {
			n = len(m.Matches)
		}
		return found{Ready: true, Hit: -1}, n, nil
	}
	args := map[string]any{"index": i, "group": group}
	if pf != nil {
		args["proof"] = pf
	}
	f, err = chromedp.Run(ctx, pageOp[found](e.world, "pick", args))
	if err != nil || f.Hit < 0 {
		return found{Ready: f.Ready, Hit: -1, Unproven: f.Unproven}, 1, err
	}
	return f, 1, nil
}

// readingFor is the lean listing that resolving every one of sels needs:
// the roles they can use and the ids they name.
func readingFor(sels ...selector.Selector) reading {
	var r reading
	all := false
	for _, s := range sels {
		named, every := selector.Named(s)
		all = all || every
		r.Named = append(r.Named, named...)
		if s.ID != "" {
			r.IDs = append(r.IDs, s.ID)
		}
	}
	slices.Sort(r.Named)
	r.Named = slices.Compact(r.Named)
	if all {
		r.Named = nil
	} else if r.Named == nil {
		r.Named = []string{} // none: a JSON null would read every name
	}
	return r
}

// targetAttempt is how a target shows among a step's tried selectors.
func targetAttempt(n int) replay.Attempt { return replay.Attempt{Strategy: "target", Matches: n} }
