package browser

import (
	"context"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
)

// netWatch follows, from the tab's Network events, the requests that may
// carry a step to the site: document loads (a form's post, a navigation)
// in any frame, XHR or fetch requests other than GET, beacons, and frames
// sent on a WebSocket the page holds. A destructive step is Sent when one
// left after its action, and its Status is the last request's answer.
type netWatch struct {
	mu     sync.Mutex
	reqs   map[network.RequestID]*request // counted requests since the mark
	order  []*request
	socket bool          // a WebSocket frame left since the mark
	moved  chan struct{} // closed and replaced at each change, for waiters
}

type request struct {
	status int  // the last answer's HTTP status, 0 while none
	done   bool // finished or failed
	failed bool // no answer: a network error, or cancelled
}

func newNetWatch() *netWatch {
	return &netWatch{reqs: map[network.RequestID]*request{}, moved: make(chan struct{})}
}

// observe runs on chromedp's reader goroutine: it only records.
func (n *netWatch) observe(ev any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if r, ok := n.reqs[ev.RequestID]; ok {
			if ev.RedirectResponse != nil { // the next hop of a counted request
				r.status = int(ev.RedirectResponse.Status)
			}
			break
		}
		doc := ev.Type == network.ResourceTypeDocument || ev.Type == network.ResourceTypePing
		write := (ev.Type == network.ResourceTypeXHR || ev.Type == network.ResourceTypeFetch) && ev.Request != nil && ev.Request.Method != "GET"
		if !doc && !write {
			return
		}
		r := &request{}
		n.reqs[ev.RequestID] = r
		n.order = append(n.order, r)
	case *network.EventResponseReceived:
		r, ok := n.reqs[ev.RequestID]
		if !ok || ev.Response == nil {
			return
		}
		r.status = int(ev.Response.Status)
	case *network.EventLoadingFinished:
		r, ok := n.reqs[ev.RequestID]
		if !ok {
			return
		}
		r.done = true
	case *network.EventWebSocketFrameSent:
		n.socket = true
	case *network.EventLoadingFailed:
		r, ok := n.reqs[ev.RequestID]
		if !ok {
			return
		}
		r.done, r.failed = true, true
	default:
		return
	}
	close(n.moved)
	n.moved = make(chan struct{})
}

// mark forgets the requests seen so far: what follows is the next
// action's.
func (n *netWatch) mark() {
	n.mu.Lock()
	defer n.mu.Unlock()
	clear(n.reqs)
	n.order, n.socket = nil, false
}

// sent reports the requests since the mark: whether any left (or a
// WebSocket frame), the last request's status, and how many requests are
// still unanswered.
func (n *netWatch) sent() (any bool, status, pending int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, r := range n.order {
		if !r.done {
			pending++
		}
	}
	if len(n.order) > 0 {
		status = n.order[len(n.order)-1].status
	}
	return len(n.order) > 0 || n.socket, status, pending
}

// settle waits up to limit while a request since the mark is unanswered.
func (n *netWatch) settle(ctx context.Context, limit time.Duration) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		n.mu.Lock()
		pending := false
		for _, r := range n.order {
			pending = pending || !r.done
		}
		moved := n.moved
		n.mu.Unlock()
		if !pending {
			return
		}
		select {
		case <-moved:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// requestOK reports whether requests left since the mark and every one
// was answered 2xx or 3xx: a page's other request failing after the save
// (an error the step caused, or not) never reads as success. final says
// the answer will not change: nothing is pending and something failed.
func (n *netWatch) requestOK() (ok, final bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.order) == 0 {
		return false, false
	}
	ok = true
	pending := false
	for _, r := range n.order {
		switch {
		case !r.done:
			pending, ok = true, false
		case r.failed && r.status == 0, r.status < 200, r.status >= 400:
			ok = false
		}
	}
	return ok, !ok && !pending
}
