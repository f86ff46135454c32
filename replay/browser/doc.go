// Package browser is the replay executor for web pages (SPEC 11): it drives
// Debian's Chromium through the DevTools protocol with chromedp, in one tab
// for the whole run.
//
// Finding: each step's selectors are tried in order by one evaluation of
// page.js, across the document, open shadow roots and visible same-origin
// frames; a selector counts only when it matches exactly one visible
// element (a non-zero box, not display:none or visibility:hidden). Every
// selector tried is reported with its count. There is no accessibility path
// or visual grounding here: when nothing matches, the step fails and says
// what each selector matched. Outcome.Selector is -1 when none did.
//
// Acting: a text field is focused, its text selected and the value typed
// with real key events, then the field is left, so the page sees keydown,
// input and change as from a person. Date, time, color and range inputs (and
// a one-line input given a line break) get the value through the native
// setter plus input and change events. A select picks the option whose text,
// else whose value, is the step's value. A click is a mouse click at the
// element's centre, or the DOM's click() when something covers that point;
// a checkbox is clicked only when not already in the state the step's value
// ("true"/"false") asks for. A submit calls form.requestSubmit, so the
// form's validation and handlers run. After a click or a submit the executor
// waits for a navigation it started to load.
//
// Secret steps are never typed: their Outcome is OK false with an Error
// starting with replay.ErrNeedsPerson's text, and no Go error. A destructive
// step in a dry run is found but not run (OK true, Committed false). A Go
// error means the browser or tab is gone, the executor is closed, or ctx is
// done; everything the page refuses is an Outcome.
package browser
