// Package desktop is the replay executor for desktop apps (SPEC section 11):
// it acts through the accessibility tree where the element is found exactly
// once, else with synthetic input at the recorded point of the recorded
// window, after checking the place still looks as recorded and that the
// tree names the step's element there (its role and name); and it waits
// while a person is using the machine. One replay at a time sends input to
// a display, a whole row at a time (Lease).
package desktop
