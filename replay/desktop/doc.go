// Package desktop is the replay executor for desktop apps (SPEC section 11):
// it acts through the accessibility tree where the element is found exactly
// once, else with synthetic input at the recorded point of the recorded
// window, after checking the place still looks as recorded and that the
// tree names the step's element there (its role and name); and it waits
// while a person is using the machine. One replay at a time sends input to
// a display, a whole row at a time (Lease).
//
// A choice (a select step, a click that leaves a check box in a state) is
// set only through the tree (ax.Chooser), on the element proven by role and
// name, and read back there; a destructive step commits only when what the
// demonstrations showed after it (its Assert: texts, a reset form) shows.
package desktop
