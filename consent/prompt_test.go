package consent

import (
	"strings"
	"testing"
	"unicode"
)

// warningSymbols are the fear register's iconography (SPEC section 6).
var warningSymbols = []string{"⚠", "🔒", "🔓", "❗", "‼", "⛔", "🚨", "🛑", "☢", "☣", "❌", "✋", "!!"}

func TestCalibratedPrompt(t *testing.T) {
	p := NewPrompt(Request{ModeDemonstration, RouteScreenshotsToCloud, []string{"floor", "desktop_ax"}}, "AcmeAgent")
	if !p.Calibrated {
		t.Fatal("screenshots_to_cloud prompt is not calibrated")
	}
	if p.Approve != "Send and build" || p.Deny != "Keep it on my machine" {
		t.Fatalf("buttons = %q / %q; want Send and build / Keep it on my machine", p.Approve, p.Deny)
	}
	text := p.Title + "\n" + p.Body
	mustSay := []struct{ what, phrase string }{
		{"what leaves", "the screen images from this recording are sent to AcmeAgent"},
		{"why it helps", "a capable model there reads them to write the skill"},
		{"what happens to them", "deleted"},
		{"the realistic scope", "whatever was on your screen while recording"},
		{"that the person decides", "You decide what's visible"},
		{"the trust already given", "same trust you already place in AcmeAgent"},
		{"whose settings apply", "data and retention settings you have with AcmeAgent"},
		{"the local alternative", "Install a local model and re-record"},
		{"why the cloud is asked", "doesn't have a local model"},
	}
	for _, m := range mustSay {
		if !strings.Contains(text, m.phrase) {
			t.Errorf("calibrated prompt does not say %s (%q):\n%s", m.what, m.phrase, text)
		}
	}
	checkCalm(t, text)
	if strings.Contains(text, "AcmeAgent's") {
		t.Errorf("the copy makes a possessive of the requester, which reads wrong for phrases:\n%s", text)
	}
	for _, banned := range []string{"hacker", "steal", "danger", "WARNING", "risk-free", "totally", "nothing to worry", "don't worry", "safe"} {
		if strings.Contains(strings.ToLower(text), strings.ToLower(banned)) {
			t.Errorf("calibrated prompt says %q: fear or minimizing register", banned)
		}
	}
}

// checkCalm: no warning symbol, no emoji or other pictograph, no shouting.
func checkCalm(t *testing.T, text string) {
	t.Helper()
	for _, s := range warningSymbols {
		if strings.Contains(text, s) {
			t.Errorf("prompt contains the warning symbol %q", s)
		}
	}
	for _, r := range text {
		if r > 0x2000 && r != '•' && r != '—' && r != '’' && !unicode.IsLetter(r) {
			t.Errorf("prompt contains the symbol %q (U+%04X)", r, r)
		}
	}
	for _, w := range strings.Fields(text) {
		if len(w) > 3 && strings.ToUpper(w) == w && strings.ToLower(w) != w {
			t.Errorf("prompt shouts %q", w)
		}
	}
}

func TestPlainPrompts(t *testing.T) {
	for _, route := range []string{RouteExtractThenCloud, RouteLocalVLM} {
		for _, mode := range []string{ModeDemonstration, ModeCopilot} {
			req := Request{mode, route, []string{"floor", "browser"}}
			p := NewPrompt(req, "")
			if p.Calibrated {
				t.Errorf("NewPrompt(%v).Calibrated = true; only screenshots_to_cloud is", req)
			}
			text := p.Title + "\n" + p.Body
			for _, phrase := range []string{
				"stays on this machine",
				"the structured, redacted trajectory can be fetched by the platform for review",
				"clicks and typing", "browser", "reprise record stop",
			} {
				if !strings.Contains(text, phrase) {
					t.Errorf("NewPrompt(%v) does not say %q:\n%s", req, phrase, text)
				}
			}
			if strings.Contains(text, "Send and build") || strings.Contains(text, "servers") {
				t.Errorf("NewPrompt(%v) uses the cloud copy:\n%s", req, text)
			}
			if got := strings.Contains(text, "live"); got != (mode == ModeCopilot) {
				t.Errorf("NewPrompt(%v) mentions the live stream: %v; want %v", req, got, mode == ModeCopilot)
			}
			checkCalm(t, text)
			if p.Kind != req.Kind() || p.ID == "" || p.Approve == "" || p.Deny == "" {
				t.Errorf("NewPrompt(%v) = %+v; want kind, id and both labels", req, p)
			}
		}
	}
	if a, b := NewPrompt(extractReq, ""), NewPrompt(extractReq, ""); a.ID == b.ID {
		t.Errorf("two prompts share the id %q", a.ID)
	}
}
