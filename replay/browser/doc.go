// Package browser is the replay executor for web pages (SPEC 11): it drives
// Debian's Chromium through the DevTools protocol with chromedp, in one tab
// for the whole run.
//
// The page side (page.js) runs in an isolated world of the tab's main
// frame, with the DOM model the recorder uses (extension/dom.js): the
// page's own scripts can neither see nor change it, and the executor reads
// roles, names, groups, options and states exactly as the recording wrote
// them. A new document gets its world at the executor's first call in it
// (one round trip, about 10 ms); each call after costs one evaluation.
//
// Finding: each step's selectors are tried in order by one evaluation,
// across the document, open shadow roots and visible same-origin frames; a
// selector counts only when it matches exactly one visible element (a
// non-zero box, not display:none or visibility:hidden). A choice step (a
// select, or a step whose role is radiogroup, listbox, combobox or menu) is
// found in group mode: a selector's matches count as the groups they
// belong to (a radio's group, an option's listbox or combobox, a menu
// button's menu), so name=plan matching three radios is one group. Every
// selector tried is reported with its count. There is no accessibility
// path here: when nothing matches, the step fails (Outcome.Missed) and says
// what each selector matched; package heal may then let a model name the
// element (ai: on_miss). Outcome.Selector is -1 when none did.
//
// Acting: a text field is focused, its text selected and the value typed
// with real key events, then the field is left, so the page sees keydown,
// input and change as from a person. Date, time, color and range inputs (and
// a one-line input given a line break) get the value through the native
// setter plus input and change events. A choice picks the option whose
// label or value is the step's value (exactly, else ignoring case, accents,
// spacing and a trailing colon or asterisk) as a person does: a native
// select's option is selected; a radio (or its label), an ARIA radio or a
// listbox option is clicked; a select-only combobox or a menu button is
// opened, then its option clicked; an autocomplete gets the label typed key
// by key and its matching suggestion clicked. An option the list does not
// have fails the step before anything is clicked, naming the control, not
// the value; an empty value picks the list's empty option, or wants none
// chosen. A click is a mouse click at the element's centre, or the DOM's
// click() when something covers that point; a two-state control (checkbox,
// switch, toggle button) is clicked only when not already in the state the
// step's value ("true"/"false") asks for. A submit calls
// form.requestSubmit, so the form's validation and handlers run. After a
// click or a submit the executor waits for a navigation it started to load.
//
// Reading back: a field holds the value typed, or, when it formats what is
// typed, the same letters and digits in the same order; a choice shows the
// option wanted and no other; a two-state control is in the state asked.
//
// Committing: a destructive step's conditions (skills.Conditions) must all
// hold at once: url_changed, url_unchanged, url_contains, text, element,
// form_reset (the form back to what the executor first saw of it, or to
// its defaults) and request_ok (every request the step sent answered 2xx or
// 3xx). The tab's network is watched from the action on (Outcome.Watched):
// Outcome.Sent says a document load, an XHR or fetch other than GET, a
// beacon or a WebSocket frame left the page, or the URL changed;
// Outcome.Status is the last such request's answer. A submit the
// browser's own validation stopped is not Sent.
//
// Messages number steps from 1. A secret step is typed only with the
// answer a person gave for it (an ask the engine puts to them); without
// one its Outcome is OK false with an Error starting with
// replay.ErrNeedsPerson's text, and no Go error. A destructive step in a dry run is found but not
// run (OK true, Committed false). A Go error means the browser or tab is
// gone, the executor is closed, or ctx is done; everything the page
// refuses is an Outcome.
package browser
