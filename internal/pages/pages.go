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
