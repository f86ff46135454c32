package computer

import "testing"

func TestNoticeOf(t *testing.T) {
	f := map[string]string{"target_app": "gedit", "scope": "desktop", "capture": "a11y-only"}
	for _, c := range []struct{ kind, summary string }{
		{"computer.grant.created", "reprise may operate gedit"},
		{"computer.grant.rebound", "reprise now operates gedit"},
		{"computer.grant.stopped", "reprise stopped"},
		{"computer.stopped", "reprise stopped"},
		{"computer.grant.expired", "reprise no longer operates gedit"},
		{"computer.grant.budget_spent", "reprise no longer operates gedit"},
		{"computer.grant.target_closed", "reprise no longer operates gedit"},
		{"computer.grant.rebind_refused", ""},
		{"computer.action", ""},
		{"computer.clipboard.read", ""},
	} {
		if got, _ := noticeOf(c.kind, f); got != c.summary {
			t.Errorf("%s: %q; want %q", c.kind, got, c.summary)
		}
	}
}
