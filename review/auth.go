package review

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
)

// The security model. Any local process, and any web page the person has
// open, can reach 127.0.0.1; only the browser that opened URL() may use the
// page:
//   - the URL's token is 256 random bits and works once: it is exchanged for
//     an HttpOnly, SameSite=Strict session cookie and a redirect that drops it
//     from the address bar and the history;
//   - every other request needs that cookie;
//   - a state change is a POST with the page's CSRF token and our own Origin,
//     so another site cannot submit a review with the person's cookie;
//   - the Host header must be 127.0.0.1:PORT, so a DNS-rebinding page that
//     reaches this port under its own name gets nothing;
//   - after a successful apply everything is refused (410), so a replayed
//     apply changes nothing. The stylesheet alone stays for the session,
//     because the confirmation page needs it and it holds no data.

// cookieName names the session cookie.
const cookieName = "reprise_review"

// contentSecurityPolicy keeps scripts, styles and images to our own origin
// (nothing inline), forms to our own origin, and the page out of frames.
const contentSecurityPolicy = "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// randomToken returns 256 random bits, base64url. crypto/rand.Read does not
// fail since Go 1.24: it crashes the program rather than return weak bytes.
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// equal compares a secret in constant time.
func equal(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// setSecurityHeaders is set on every response, refusals included. No CORS
// header is ever set: no other origin may read anything here.
func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

// exchange trades the URL's one-time token for the session cookie.
func (s *Server) exchange(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		s.refuse(w, r, http.StatusForbidden, "token method")
		return
	}
	s.mu.Lock()
	ok := equal(r.URL.Query().Get("token"), s.token)
	if ok {
		s.token = ""
		s.exchanged = true
	}
	session := s.session
	s.mu.Unlock()
	if !ok {
		s.refuse(w, r, http.StatusForbidden, "token")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: session, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/review", http.StatusSeeOther)
	s.log.Info("review link opened")
}

// hasSession reports whether r carries the session cookie.
func (s *Server) hasSession(r *http.Request) bool {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exchanged && equal(c.Value, s.session)
}

// sameOrigin reports whether a POST comes from our own page: its Origin, or
// when a browser sends none, its Referer. Neither is a refusal.
func (s *Server) sameOrigin(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" {
		return o == s.origin
	}
	u, err := url.Parse(r.Header.Get("Referer"))
	return err == nil && u.Scheme == "http" && u.Host == s.host
}

// validCSRF checks the token the page put in its form (or a header, for a
// script).
func (s *Server) validCSRF(r *http.Request) bool {
	got := r.Header.Get("X-CSRF-Token")
	if got == "" {
		got = r.PostFormValue("csrf")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return equal(got, s.csrf)
}

// refuse answers a request the rules turn away, saying what to do next. The
// query is not logged: it may hold the token.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, code int, reason string) {
	s.log.Debug("request refused", keyPath, r.URL.Path, keyReason, reason, keyStatus, code)
	msg := "Forbidden: open the review page with the link reprise review printed; it works once, in one browser. Run reprise review again for a new link."
	switch code {
	case http.StatusGone:
		msg = "This review was applied and the page is closed. Run reprise review again to review a recording."
	case http.StatusConflict:
		msg = "A review is being applied from this page; wait for its answer."
	}
	http.Error(w, fmt.Sprintf("%d %s", code, msg), code)
}
