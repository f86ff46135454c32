package browser

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay/browser/certproxy"
)

// guard keeps a tab on the skill's allowed domains and notices pages a
// site refused. With allowed domains it pauses every request of the tab
// (Fetch) and lets through only those to an allowed host, counting the
// rest by host. It reads the main frame's document answers for refusals:
// a bot check (cf-mitigated: challenge), 403 or 429 in place of the page.
//
// Requests of a cross-site frame that runs in a process of its own, of
// workers and of WebSockets are not paused: the list keeps a page from
// loading what it should not by accident, and is no sandbox.
type guard struct {
	allowed []string
	main    cdp.FrameID
	reply   func(call func(context.Context) error) // answers a paused request, off the reader goroutine

	mu      sync.Mutex
	blocked map[string]int // requests blocked since the mark, by host
	left    string         // the host a main-frame document outside the list was for
	docs    int            // main-frame documents answered so far
	last    refusal        // the last main document's host and status
	refused *refusal       // the main document's refusal; nil when it is not refused
	moved   chan struct{}  // closed and replaced at each document answer
}

// refusal is a page a site refused.
type refusal struct {
	host      string
	status    int
	challenge bool
}

func (r refusal) String() string {
	if r.challenge {
		return fmt.Sprintf("page refused: %s answered with a bot check (HTTP %d) in place of the page", r.host, r.status)
	}
	return fmt.Sprintf("page refused: %s answered %d", r.host, r.status)
}

func newGuard(allowed []string) *guard {
	return &guard{allowed: allowed, blocked: map[string]int{}, moved: make(chan struct{})}
}

// enable starts pausing requests, when the skill lists allowed domains.
func (g *guard) enable(ctx context.Context) error {
	if len(g.allowed) == 0 {
		return nil
	}
	_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*", RequestStage: fetch.RequestStageRequest}}})
	return err
}

// allows reports whether raw's host may be loaded: every host when there
// is no list, and any URL without a host (about:blank, data:).
func (g *guard) allows(raw string) (host string, ok bool) {
	host = hostOf(raw)
	if host == "" || len(g.allowed) == 0 {
		return host, true
	}
	return host, slices.ContainsFunc(g.allowed, func(d string) bool { return certproxy.MatchHost(d, host) })
}

// observe runs on chromedp's reader goroutine: it records, and answers
// paused requests from goroutines of their own.
func (g *guard) observe(ev any) {
	switch ev := ev.(type) {
	case *fetch.EventRequestPaused:
		host, ok := g.allows(ev.Request.URL)
		if ok {
			g.reply(func(ctx context.Context) error {
				_, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
				return err
			})
			return
		}
		g.mu.Lock()
		g.blocked[host]++
		if ev.ResourceType == network.ResourceTypeDocument && ev.FrameID == g.main {
			g.left = host
		}
		g.mu.Unlock()
		g.reply(func(ctx context.Context) error {
			_, err := chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
			return err
		})
	case *network.EventResponseReceived:
		if ev.Type != network.ResourceTypeDocument || ev.FrameID != g.main || ev.Response == nil {
			return
		}
		var r *refusal
		challenge := strings.EqualFold(header(ev.Response.Headers, "cf-mitigated"), "challenge")
		if s := int(ev.Response.Status); challenge || s == 403 || s == 429 {
			r = &refusal{host: hostOf(ev.Response.URL), status: s, challenge: challenge}
		}
		g.mu.Lock()
		g.docs++
		g.refused = r
		g.last = refusal{host: hostOf(ev.Response.URL), status: int(ev.Response.Status)}
		close(g.moved)
		g.moved = make(chan struct{})
		g.mu.Unlock()
	}
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

func header(h network.Headers, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			s, _ := v.(string)
			return s
		}
	}
	return ""
}

// mark starts a step: what follows is counted for it.
func (g *guard) mark() (docs int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	clear(g.blocked)
	g.left = ""
	return g.docs
}

// blockedNote is the step's line about blocked requests, "" when none:
// "allowed_domains blocked 14 requests: cdn.example.com (12), ...", up to
// ten hosts, most blocked first.
func (g *guard) blockedNote() (note, left string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.blocked) == 0 {
		return "", g.left
	}
	hosts := make([]string, 0, len(g.blocked))
	total := 0
	for h, n := range g.blocked {
		hosts = append(hosts, h)
		total += n
	}
	slices.SortFunc(hosts, func(a, b string) int { return cmp.Or(g.blocked[b]-g.blocked[a], strings.Compare(a, b)) })
	var parts []string
	for i, h := range hosts {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more hosts", len(hosts)-10))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", h, g.blocked[h]))
	}
	return fmt.Sprintf("allowed_domains blocked %d requests: %s", total, strings.Join(parts, ", ")), g.left
}

// challengeWait is how long a bot check may take to pass by itself, as
// one that needs no person does by loading the page it stood in for.
var challengeWait = 10 * time.Second

// refusedSince reports the main document's refusal when a document came
// since docs (the step's mark). A bot check is first given challengeWait
// to load the page it stood in for.
func (g *guard) refusedSince(ctx context.Context, docs int) *refusal {
	deadline := time.NewTimer(challengeWait)
	defer deadline.Stop()
	for {
		g.mu.Lock()
		r, now, moved := g.refused, g.docs, g.moved
		g.mu.Unlock()
		if now == docs || r == nil || !r.challenge {
			if now == docs {
				return nil
			}
			return r
		}
		select {
		case <-moved:
		case <-deadline.C:
			return r
		case <-ctx.Done():
			return r
		}
	}
}

// lastDoc is the main frame's last document answer, and how many came.
func (g *guard) lastDoc() (host string, status, docs int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.last.host, g.last.status, g.docs
}
