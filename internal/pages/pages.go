// Package pages holds test pages that both sides of reprise read: the
// recorder's tests play a person through them, the replayer's tests fill
// them, so one page proves that what one writes the other reads.
package pages

import _ "embed"

// Sets has a control of every kind that holds a set (a multiple select, a
// multiselectable listbox, a group of boxes, a tag picker with chips and
// late suggestions) and a date in sections; window.state() returns what
// each holds, as JSON.
//
//go:embed sets.html
var Sets string

// Calendar has date buttons written by hand whose date is picked only in
// the calendar each opens: one date, a range ("5 Mar 2027 to 12 Mar
// 2027") and one that shows its date in digits whose order is not certain
// ("03/04/2027"), beside a plain button; window.state() returns what each
// holds, as JSON (ISO dates).
//
//go:embed calendar.html
var Calendar string
