package main

import (
	"context"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/elements"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/selector"
)

type elementsFlags struct {
	browserURL, profile, window, display, match string
	format                                      formatFlag
	browser, atPointer, watch                   bool
	limit                                       int
}

func newElementsCmd(g *globals) *cobra.Command {
	f := &elementsFlags{}
	cmd := &cobra.Command{
		Use:   "elements",
		Short: "List what a selector can name in the front window or a browser's page",
		Long: `List the visible elements of the front window (through the OS's accessibility
tree) or of the page a running browser shows (--browser-url, or --browser for the one
` + "`reprise replay`" + ` runs), in tree order: role, name, id, value (never a password's),
bounds and path. --match tries a selector (JSON or YAML, or - to read it from stdin): it
succeeds only when exactly one element matches, and lists the matches either way.
It only reads: it takes no lease and sends no input.

Failures exit 1; with --format json they print {"error": {"code", "message"}}, the code
one of INVALID_REQUEST, UNSUPPORTED, NO_ELEMENTS, SELECTOR_NOT_FOUND, SELECTOR_AMBIGUOUS
or INTERNAL (see docs/errors.md).`,
		Example: `  reprise elements --window "New customer"
  reprise elements --browser --match '{"role":"button","name":"Save"}' --format json
  echo '{role: text_field, near: {label: City, side: right}}' | reprise elements --match -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			err := runElements(cmd.Context(), g, f, cmd.InOrStdin(), cmd.OutOrStdout())
			if err != nil && f.format == "json" {
				if werr := elements.WriteError(cmd.OutOrStdout(), err); werr != nil {
					return werr
				}
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.browserURL, "browser-url", "", "read the page a running browser shows, at this DevTools endpoint")
	fl.BoolVar(&f.browser, "browser", false, "read the page of the browser `reprise replay` runs")
	fl.StringVar(&f.profile, "profile", "", "with --browser: that browser's profile, a name kept in the data dir or a folder's path (default: browser-profile in the data dir)")
	fl.StringVar(&f.window, "window", "", "desktop: the window whose title contains this (default: the active window)")
	fl.StringVar(&f.display, "display", "", "desktop: the X display (default $DISPLAY)")
	fl.StringVar(&f.match, "match", "", "a selector to try (JSON or YAML), or - to read it from stdin")
	fl.BoolVar(&f.atPointer, "at-pointer", false, "desktop: the element under the pointer and its ancestors")
	fl.BoolVar(&f.watch, "watch", false, "print one JSON object per change, until stdin closes")
	fl.IntVar(&f.limit, "limit", 400, "at most this many elements")
	fl.Var(&f.format, "format", "output format: text or json")
	return cmd
}

func (f *elementsFlags) check() error {
	bad := func(format string, args ...any) error {
		return elements.Fail(ops.CodeInvalidRequest, format, args...)
	}
	isBrowser := f.browser || f.browserURL != ""
	switch {
	case f.limit <= 0:
		return bad("--limit %d: want a positive number of elements", f.limit)
	case f.browser && f.browserURL != "":
		return bad("--browser and --browser-url both name a browser: give one")
	case isBrowser && (f.atPointer || f.window != "" || f.display != ""):
		return bad("--at-pointer, --window and --display read the desktop, not a browser's page")
	case f.profile != "" && !f.browser:
		return bad("--profile names the browser of --browser")
	case f.watch && (f.match != "" || f.atPointer):
		return bad("--watch lists every change; it does not combine with --match or --at-pointer")
	case f.match != "" && f.atPointer:
		return bad("--match and --at-pointer each pick elements: give one")
	}
	return nil
}

// selectorArg reads --match: the selector itself, or stdin for "-".
func (f *elementsFlags) selectorArg(stdin io.Reader) (*selector.Selector, error) {
	text := []byte(f.match)
	if f.match == "-" {
		var err error
		if text, err = readNamed(stdin, "-", 1<<20); err != nil {
			return nil, elements.Fail(ops.CodeInvalidRequest, "the selector: %v", err)
		}
	}
	s, err := selector.Parse(text)
	if err != nil {
		return nil, elements.Fail(ops.CodeInvalidRequest, "--match: %v", err)
	}
	return s, nil
}

func runElements(ctx context.Context, g *globals, f *elementsFlags, stdin io.Reader, out io.Writer) error {
	if err := f.check(); err != nil {
		return err
	}
	var sel *selector.Selector
	if f.match != "" {
		var err error
		if sel, err = f.selectorArg(stdin); err != nil {
			return err
		}
	}
	src, done, err := f.source(ctx, g)
	if err != nil {
		return err
	}
	defer done()

	if f.watch {
		// The watch ends when stdin closes: the caller's way to stop it.
		wctx, cancel := context.WithCancel(ctx)
		go func() { _, _ = io.Copy(io.Discard, stdin); cancel() }()
		return elements.WatchJSON(wctx, src, f.limit, 500*time.Millisecond, out)
	}
	q := elements.Query{Match: sel, AtPointer: f.atPointer, Display: f.display, Limit: f.limit}
	return elements.Print(ctx, src, q, f.format == "json", "--limit", out)
}

// source opens what --browser, --browser-url or the desktop flags name.
func (f *elementsFlags) source(ctx context.Context, g *globals) (elements.Source, func(), error) {
	url := f.browserURL
	if f.browser {
		home, err := g.resolveHome()
		if err != nil {
			return nil, nil, err
		}
		dir, err := browser.ProfileDir(home, f.profile, "browser-profile")
		if err != nil {
			return nil, nil, err
		}
		if url, err = elements.RunningIn(dir); err != nil {
			return nil, nil, err
		}
	}
	if url != "" {
		page, err := elements.OpenPage(ctx, url)
		return page, func() { _ = page.Close() }, err
	}
	w, closeTree, err := elements.OpenWindow(f.display, f.window, g.log)
	return w, func() { _ = closeTree() }, err
}
