package replay

import (
	"context"
	"sync"
	"time"
)

// pace slows a run down when sites refuse its pages (a bot check, 403 or
// 429): each refused row doubles the pause before the next row (from
// paceFirst up to paceMost), and each row that is not refused halves it,
// down to none. A run that goes on after a refusal backs off instead of
// hammering the site, and recovers its rate once the site lets it in.
type pace struct {
	mu    sync.Mutex
	pause time.Duration
}

const (
	paceFirst = time.Second
	paceMost  = time.Minute
)

func (p *pace) refused() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pause = min(max(2*p.pause, paceFirst), paceMost)
}

func (p *pace) passed() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pause /= 2; p.pause < paceFirst/4 {
		p.pause = 0
	}
}

// wait pauses before the next row, for as long as the pace says now.
func (p *pace) wait(ctx context.Context) error {
	p.mu.Lock()
	d := p.pause
	p.mu.Unlock()
	if d == 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
