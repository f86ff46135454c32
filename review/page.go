package review

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/reprise-dev/reprise/events"
)

//go:embed assets
var assets embed.FS

var (
	pages    = template.Must(template.ParseFS(assets, "assets/*.html"))
	styleCSS = must(assets.ReadFile("assets/style.css"))
)

const (
	stylePath = "/assets/style.css"
	// maxForm bounds an apply request: a few bytes per checked box.
	maxForm = 64 << 10
	// mask stands for a value the page must never show.
	mask = "••••"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// pageView is everything review.html shows; raw values of masked steps
// never enter it.
type pageView struct {
	ID, Route, Created, CreatedISO, CSRF string
	Coverage                             coverage
	Rows                                 []row
}

// coverage counts steps by how replay can find their element again.
type coverage struct{ Steps, DOM, AX, None int }

type row struct {
	Seq                         uint64
	Action, Target, Kind, Value string
	HasValue, Masked, CanRedact bool
	HasFrame                    bool
	// Inferred says no event showed the change: the recorder made the
	// step from the control's state. The person should look at it.
	Inferred bool
}

func (s *Server) view() pageView {
	created := time.Unix(0, int64(s.rec.CreatedAt*float64(time.Second)))
	v := pageView{
		ID: s.rec.RecordingID, Route: s.rec.InterpretationRoute,
		Created: created.Format("2 Jan 2006, 15:04:05 MST"), CreatedISO: created.Format(time.RFC3339),
		Coverage: coverage{Steps: len(s.rec.Steps)},
	}
	s.mu.Lock()
	v.CSRF = s.csrf
	s.mu.Unlock()
	for _, st := range s.rec.Steps {
		r := row{Seq: st.Seq, Action: st.Action, Kind: events.KindNone, HasFrame: st.ScreenshotRef != "", Inferred: st.Inferred}
		// A step without enrichment has only its floor: for replay that is kind none.
		if e := st.Enrichment; e != nil {
			r.Target = e.Label
			if r.Target == "" {
				r.Target = e.Role
			}
			if e.Kind == events.KindDOM || e.Kind == events.KindAX {
				r.Kind = e.Kind
			}
		}
		switch r.Kind {
		case events.KindDOM:
			v.Coverage.DOM++
		case events.KindAX:
			v.Coverage.AX++
		default:
			v.Coverage.None++
		}
		if val := st.Value; val != nil {
			r.HasValue = true
			r.Masked = st.Redacted || val.Type == events.ValueSecret
			r.CanRedact = !st.Redacted
			if r.Masked {
				r.Value = mask
			} else {
				r.Value = val.Raw
			}
		}
		v.Rows = append(v.Rows, r)
	}
	return v
}

// render executes a template whole before writing, so a failure never
// leaves half a page.
func (s *Server) render(w http.ResponseWriter, code int, name string, data any) {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		s.log.Error("render page", keyTemplate, name, keyErr, err)
		http.Error(w, "500 the review page failed to render; run reprise review again", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(b.Bytes())
}

func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	// Under no-referrer a browser sends "Origin: null" with the form's POST
	// (Fetch, "append a request Origin header"), and the Origin check could
	// never pass. same-origin still sends nothing to any other origin, and
	// the token is no longer in this page's URL.
	w.Header().Set("Referrer-Policy", "same-origin")
	s.render(w, http.StatusOK, "review.html", s.view())
}

func serveStyle(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	_, _ = w.Write(styleCSS)
}

// frame serves a step's frame by its seq; the ref comes from the recording,
// never from the client.
func (s *Server) frame(w http.ResponseWriter, r *http.Request) {
	seq, err := strconv.ParseUint(r.PathValue("seq"), 10, 64)
	st, ok := s.steps[seq]
	if err != nil || !ok || st.ScreenshotRef == "" {
		http.NotFound(w, r)
		return
	}
	b, err := s.src.Frame(r.Context(), s.rec.RecordingID, st.ScreenshotRef)
	if err != nil {
		s.log.Warn("fetch frame", keySeq, seq, keyErr, err)
		http.NotFound(w, r)
		return
	}
	ct := imageType(b)
	if ct == "" {
		s.log.Warn("frame is neither PNG nor JPEG", keySeq, seq)
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}

// imageType sniffs the two formats a frame may have; anything else is not
// served, whatever the store says it is.
func imageType(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	}
	return ""
}

// apply checks the request, sends the review to the daemon once, and on
// success closes the page for good.
func (s *Server) apply(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(r) {
		s.refuse(w, r, http.StatusForbidden, "origin")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		code := http.StatusBadRequest
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			code = http.StatusRequestEntityTooLarge
		}
		http.Error(w, strconv.Itoa(code)+" the review form could not be read; reload the page and apply again", code)
		return
	}
	if !s.validCSRF(r) {
		s.refuse(w, r, http.StatusForbidden, "csrf")
		return
	}
	removed, ok1 := s.seqs(r.PostForm["remove"])
	redacted, ok2 := s.seqs(r.PostForm["redact"])
	if !ok1 || !ok2 {
		http.Error(w, "400 the form names a step that is not in this recording; reload the page and apply again", http.StatusBadRequest)
		return
	}
	// Removing a step drops its value with it; redacting it too says nothing more.
	redacted = slices.DeleteFunc(redacted, func(q uint64) bool { return slices.Contains(removed, q) })

	if code := s.begin(); code != 0 {
		s.refuse(w, r, code, "apply in flight or done")
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, applyTimeout)
	defer cancel()
	kept, err := s.src.Apply(ctx, s.rec.RecordingID, removed, redacted)
	if err != nil {
		s.end(stateOpen)
		s.log.Warn("apply review", keyErr, err)
		s.render(w, http.StatusBadGateway, "error.html", err.Error())
		return
	}
	s.end(stateApplied)
	s.log.Info("review applied", keyRemoved, len(removed), keyRedacted, len(redacted), keySteps, kept)
	s.render(w, http.StatusOK, "done.html", kept)
	s.markDone()
}

// seqs parses checked boxes: known seqs only, each once, in order.
func (s *Server) seqs(vals []string) ([]uint64, bool) {
	out := []uint64{}
	for _, v := range vals {
		seq, err := strconv.ParseUint(v, 10, 64)
		if _, ok := s.steps[seq]; err != nil || !ok {
			return nil, false
		}
		out = append(out, seq)
	}
	slices.Sort(out)
	return slices.Compact(out), true
}

// begin takes the single apply slot: 0, or the status that refuses it.
func (s *Server) begin() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case stateApplying:
		return http.StatusConflict
	case stateApplied:
		return http.StatusGone
	}
	s.state = stateApplying
	return 0
}

func (s *Server) end(st state) {
	s.mu.Lock()
	s.state = st
	s.mu.Unlock()
}
