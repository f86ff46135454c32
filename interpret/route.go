// Package interpret decides how a recording can be understood without
// guessing (SPEC section 10): which route its steps are interpreted through,
// given what this machine can do locally, and what the person agreed to.
package interpret

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// Routes, from the one that lets the least leave the machine.
const (
	RouteLocalVLM           = "local_vlm"            // nothing leaves: a model on this machine
	RouteExtractThenCloud   = "extract_then_cloud"   // text extracted here may leave, never pixels
	RouteScreenshotsToCloud = "screenshots_to_cloud" // pixels may leave, behind their own consent
)

// Routes lists the routes a request may name.
var Routes = []string{RouteExtractThenCloud, RouteLocalVLM, RouteScreenshotsToCloud}

// Check answers whether a capability works on this machine, and if not,
// what to do about it.
type Check func(ctx context.Context) (ok bool, why string)

// Prober finds the route a recording gets, in the SPEC's order: elements
// resolved by DOM or AX, then OCR on the device, then a local vision model,
// else only screenshots to the cloud.
type Prober struct {
	// Structured says whether a channel resolves the elements it acts on
	// (DOM in the browser, an accessibility tree on the desktop).
	Structured func(channel string) bool
	OCR        Check
	LocalVLM   Check
}

// Probe runs the checks for these channels. The route is not chosen yet.
func (p Prober) Probe(ctx context.Context, requested string, channels []string) (events.RouteProbe, []string) {
	probe := events.RouteProbe{Requested: requested}
	var missing []string
	if p.Structured != nil {
		probe.Structured = slices.ContainsFunc(channels, p.Structured)
	}
	if !probe.Structured {
		missing = append(missing, fmt.Sprintf("no requested channel (%s) resolves elements", strings.Join(channels, ", ")))
	}
	probe.OCR, missing = run(ctx, p.OCR, "OCR", missing)
	probe.LocalVLM, missing = run(ctx, p.LocalVLM, "a local vision model", missing)
	return probe, missing
}

func run(ctx context.Context, c Check, what string, missing []string) (bool, []string) {
	if c == nil {
		return false, append(missing, what+" is not set up")
	}
	ok, why := c(ctx)
	if !ok {
		missing = append(missing, what+": "+why)
	}
	return ok, missing
}

// Route returns the route a recording gets: the first that works in the
// probe's order, never one that lets more leave the machine than the route
// the person consented to. Local extraction (DOM/AX or OCR) serves
// extract_then_cloud; nothing but the text it extracts may leave, and the
// two-row path sends nothing at all.
//
// It fails with INTERPRETATION_UNAVAILABLE when nothing local works and the
// person did not consent to screenshots leaving.
func (p Prober) Route(ctx context.Context, requested string, channels []string) (events.RouteProbe, error) {
	if !slices.Contains(Routes, requested) {
		return events.RouteProbe{}, ops.Errorf(ops.CodeInvalidRequest, "interpretation_route must be one of %s", strings.Join(Routes, ", "))
	}
	probe, missing := p.Probe(ctx, requested, channels)
	extract := probe.Structured || probe.OCR
	switch {
	case requested == RouteLocalVLM && probe.LocalVLM:
		probe.Effective = RouteLocalVLM
	case requested == RouteLocalVLM:
		return probe, ops.Errorf(ops.CodeInterpretationUnavailable,
			"the local_vlm route needs a local vision model and none answers (%s); configure one (an OpenAI-compatible endpoint such as Ollama) in config.json's local_model, or start with extract_then_cloud: the two-row path needs no model",
			strings.Join(missing, "; "))
	case extract:
		probe.Effective = RouteExtractThenCloud
	case probe.LocalVLM:
		probe.Effective = RouteLocalVLM
	case requested == RouteScreenshotsToCloud:
		probe.Effective = RouteScreenshotsToCloud
	default:
		return probe, ops.Errorf(ops.CodeInterpretationUnavailable,
			"nothing on this machine can interpret this recording (%s); install tesseract-ocr, record in the browser, or configure a local model; otherwise only screenshots_to_cloud is possible, and it needs its own consent (REQUEST_RECORDING_CONSENT with that route)",
			strings.Join(missing, "; "))
	}
	return probe, nil
}

// PoorWarning is the flag a recording gets at stop when more than half its
// steps resolved no element and OCR was not there to read their frames.
const PoorWarning = "this app records poorly: more than half its steps resolved no element, and OCR is not available to read their frames (install tesseract-ocr, or record it in the browser)"

// RecordsPoorly says whether a recording with these counts gets PoorWarning.
func RecordsPoorly(probe *events.RouteProbe, steps, none int) bool {
	return probe != nil && !probe.OCR && steps > 0 && none*2 > steps
}
