package browser

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// stepMark is where a step began: the main frame's documents so far.
type stepMark struct{ docs int }

// before starts a step's watch: requests blocked, dialogs, downloads.
func (e *Executor) before(ctx context.Context, st replay.Step) (stepMark, error) {
	m := stepMark{docs: e.guard.mark()}
	e.dialogs.take()
	e.dialogs.answer(st.Dialog == skills.DialogDismiss)
	e.downloads.mark()
	staging := ""
	if st.Artifacts != "" {
		staging = filepath.Join(filepath.Dir(st.Artifacts), "incoming")
	}
	if err := e.downloads.allow(ctx, staging); err != nil {
		return m, fmt.Errorf("%s: %w", stepRef(st), err)
	}
	return m, nil
}

// after adds to a step's outcome what happened around it: the dialogs
// accepted and the requests blocked (as notes), a page the site refused
// or a page outside the allowed domains (failing the step), the files it
// downloaded, and the screenshot the skill's policy asks for.
func (e *Executor) after(ctx context.Context, st replay.Step, m stepMark, out *replay.Outcome) {
	fail := func(why string) {
		if out.OK && out.Committed {
			out.Notes = append(out.Notes, why) // the assert proved the row filed
			return
		}
		if out.OK || out.Error == "" {
			out.OK, out.Error = false, fmt.Sprintf("%s: %s", stepRef(st), why)
			return
		}
		out.Error += "; " + why
	}
	out.Notes = append(out.Notes, e.dialogs.take()...)
	blocked, left := e.guard.blockedNote()
	if blocked != "" {
		out.Notes = append(out.Notes, blocked)
	}
	if left != "" {
		fail(fmt.Sprintf("the page left the allowed domains for %s", left))
	}
	if e.certs != nil {
		// The certificate proxy answers 502 for a site that refused its
		// certificate or could not be reached: say which.
		if host, status, docs := e.guard.lastDoc(); docs != m.docs && status == 502 {
			if err := e.certs.Refusal(host); err != nil {
				fail("client certificate: " + err.Error())
			}
		}
	}
	if r := e.guard.refusedSince(ctx, m.docs); r != nil {
		out.Refused = true
		fail(r.String())
	} else if !out.OK && blocked != "" {
		out.Error += "; " + blocked
	}
	begin := time.Duration(0)
	if st.Output && out.OK && !st.DryRun {
		begin = downloadBegin
	}
	if st.Artifacts != "" && (begin > 0 || e.downloads.begun()) {
		files, err := e.downloads.settle(ctx, begin, filepath.Join(st.Artifacts, "downloads"))
		out.Files = append(out.Files, files...)
		switch {
		case err != nil:
			fail(fmt.Sprintf("download: %v", err))
		case st.Output && len(files) > 0:
			out.Output = files[len(files)-1]
		}
	}
	if path, err := e.shot(ctx, st, out.OK); err != nil {
		out.Notes = append(out.Notes, "no screenshot: "+errKind(err))
	} else if path != "" {
		out.Files = append(out.Files, path)
	}
}
