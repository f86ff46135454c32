package consent

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
)

// Decision is a person's answer to an api.ConsentPrompt.
type Decision struct {
	// Approved is true only for an explicit yes.
	Approved bool `json:"approved"`
	// Remember asks that this answer stand for every recording of the same
	// Kind until the person forgets it.
	Remember bool `json:"remember"`
}

// RememberQuestion is asked after the answer, by prompters that ask it as a
// second question.
const RememberQuestion = "Remember my choice for recordings like this?"

// Labels of the remember question's buttons.
const (
	RememberYes = "Remember"
	RememberNo  = "Just this once"
)

// DefaultRequester names whoever asks when the caller does not say.
const DefaultRequester = "the platform"

// NewPrompt writes the confirmation for req, asked for by requester. Every
// route gets a plain, short confirmation; screenshots_to_cloud, the only one
// that sends screen images off the machine, gets the calibrated copy instead.
// req should be valid.
func NewPrompt(req Request, requester string) api.ConsentPrompt {
	req.Normalize()
	if requester == "" {
		requester = DefaultRequester
	}
	p := api.ConsentPrompt{ID: newPromptID(), Request: ops.ConsentRequest(req), Kind: req.Kind(), Requester: requester}
	if req.InterpretationRoute == RouteScreenshotsToCloud {
		p.Title = "Build this skill using the cloud?"
		p.Body = calibratedBody(req, requester)
		p.Calibrated = true
		p.Approve, p.Deny = "Send and build", "Keep it on my machine"
		return p
	}
	p.Title = "Start recording?"
	p.Body = plainBody(req, requester)
	p.Approve, p.Deny = "Record", "Don't record"
	return p
}

func newPromptID() string {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand does not fail on supported systems (Go 1.24+).
		panic(fmt.Sprintf("consent prompt id: %v", err))
	}
	return hex.EncodeToString(b)
}

// The copy takes requester as a noun phrase ("the platform", "AcmeAgent")
// and never makes a possessive of it, so any phrase reads right.

func plainBody(req Request, requester string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "If you approve, reprise records %s on this machine, as requested by %s.\n\n", modeWords(req.Mode), requester)
	fmt.Fprintf(&b, "What is recorded: %s.\n\n", channelWords(req.Channels))
	fmt.Fprintf(&b, "Where it goes: the recording stays on this machine; the structured, redacted trajectory can be fetched by %s for review. ", requester)
	switch req.InterpretationRoute {
	case RouteExtractThenCloud:
		fmt.Fprintf(&b, "To build the skill, text and structure read from the steps go to %s; screenshots stay here.", requester)
	case RouteLocalVLM:
		b.WriteString("To build the skill, a model on this machine reads the screenshots; they stay here.")
	}
	if req.Mode == ModeCopilot {
		fmt.Fprintf(&b, "\n\nWhile you record, each redacted step is also shown live to %s, so it can follow along and ask questions.", requester)
	}
	b.WriteString("\n\nYou can stop at any time with `reprise record stop`.")
	return b.String()
}

// calibratedBody is SPEC section 6's calibrated copy: what leaves, why it
// helps, the realistic scope, the trust already given, the local
// alternative; then it stops. No warning symbols, no fear, no minimizing.
func calibratedBody(req Request, requester string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "If you approve, reprise records %s on this machine (%s), as requested by %s.\n\n", modeWords(req.Mode), channelWords(req.Channels), requester)
	b.WriteString("This computer doesn't have a local model that can read these screenshots, so building this skill needs the cloud. ")
	fmt.Fprintf(&b, "If you continue, the screen images from this recording are sent to %s, a capable model there reads them to write the skill, and then they're deleted (or kept per your data settings).\n\n", requester)
	b.WriteString("Worth knowing:\n")
	b.WriteString("• The images show whatever was on your screen while recording, including anything else that was open. You decide what's visible.\n")
	fmt.Fprintf(&b, "• They're handled under the data and retention settings you have with %s.\n", requester)
	fmt.Fprintf(&b, "• It's the same trust you already place in %s to act on your computer, now with screen images for this one recording.\n\n", requester)
	b.WriteString("Prefer to keep screen images on your machine? Install a local model and re-record. ")
	b.WriteString("The structured trajectory will still appear in your browser for review.")
	return b.String()
}

func modeWords(mode string) string {
	if mode == ModeCopilot {
		return "a task with the co-pilot"
	}
	return "a demonstration of a task"
}

// channelWords says what each channel records, in the order a person
// thinks of them (the floor first), not the sorted order.
func channelWords(chs []string) string {
	var parts []string
	for _, c := range channels {
		if !slices.Contains(chs, c) {
			continue
		}
		switch c {
		case ChannelFloor:
			parts = append(parts, "your clicks and typing, each with a screenshot of the screen")
		case ChannelBrowser:
			parts = append(parts, "the fields and buttons you use in the browser tab you record")
		case ChannelDesktopAX:
			parts = append(parts, "the names of the buttons and fields you use in desktop apps")
		}
	}
	return strings.Join(parts, "; ")
}
