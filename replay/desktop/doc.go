// Package desktop is the replay executor for desktop apps (SPEC section 11):
// it acts through the accessibility tree where the element is found exactly
// once, else with synthetic input at the recorded point of the recorded
// window, after checking the place still looks as recorded; and it waits
// while a person is using the machine.
package desktop
