package heal

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
)

// A model (or a cache entry, or a pin) names an element; reprise does the
// step there with the row's own value. An element of the wrong kind would
// take that value somewhere it must not go: an e-mail typed into a
// password field, a click on "Delete everything". So an element is used
// only when it fits the step, by the rule below; one that does not is
// refused, and the model is told why.
//
// The rule, for the element the step itself runs on (fitStep):
//
//   - secret: an element that is a password field (the executor says so in
//     Screen.Facts, or a text field whose name reads as one: password,
//     passcode, PIN...) fits only a secret step, and a secret step fits
//     only one. Where the executor tells which fields are secure, a fill
//     into a field it says nothing of is refused.
//   - fill: a text field (textbox, searchbox, spinbutton, textarea) or a
//     combo box (one that takes typing).
//   - select: a combo box, or a list or group of options; where the
//     outline lists its options (list items or radios inside it), one of
//     them must be the step's value.
//   - a click that sets a checkbox (its value true or false, or recorded
//     on a checkbox): a checkbox or switch.
//   - any other click or submit: a button, link, menu item, tab, radio,
//     checkbox, list item or cell. Then:
//   - on a step that is not destructive: never an element that reads as
//     one that files or deletes (below), unless its name is the name the
//     step recorded (its target's name or label);
//   - on a destructive step (or a submit): a button, or an element the
//     executor says submits, or a link or menu item that reads as filing;
//     and one that reads as deleting only when the step's recorded name
//     does too (a step that saves is never healed onto a delete).
//
// A click before the step (fitClick) is never on a password field nor on
// an element that reads as one that files or deletes.
//
// An element reads as one that files or deletes when it is not a field
// (text field, combo box, checkbox, radio) and the executor says it
// submits its form (Fact.Submit), or a word of its name, in lower case,
// is one of submitWords or deleteWords.

// Fact is what an executor knows of one element that its role and name do
// not say.
type Fact struct {
	// Secure marks a password or other secure text field: an input of
	// type password, an AX secure text field, an AT-SPI password text, a
	// UIA element whose IsPassword is true.
	Secure bool
	// Submit marks a control that submits its form: a <button> of type
	// submit (the default inside a form), an input of type submit or image.
	Submit bool
}

// Words that make an element read as one that files or deletes. Close and
// cancel are left out: they dismiss banners and dialogs, which a click
// before a step is for.
var (
	submitWords = words("submit send save pay purchase buy order checkout confirm publish post transfer")
	deleteWords = words("delete remove erase destroy purge wipe discard reset clear revoke terminate deactivate unsubscribe")
	secretWords = words("password passwd passcode passphrase passwort pin secret")
)

// Roles by what a step does with its element.
var (
	typable   = words("text_field combo_box")
	clickable = words("button link menu_item tab radio checkbox list_item cell")
	fields    = words("text_field combo_box checkbox radio")
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// fact returns what the executor says of element i, and whether it said.
func (s Screen) fact(i int) (Fact, bool) {
	if i < 0 || i >= len(s.Facts) {
		return Fact{}, false
	}
	return s.Facts[i], true
}

// fitStep says why element i of scr cannot be the element st runs on; nil
// when it fits. m masks the row's values in names, to compare them with
// what the step recorded.
func fitStep(st replay.Step, m masker, scr Screen, i int) error {
	el := scr.Tree[i]
	if err := fitSecret(st, scr, i); err != nil {
		return err
	}
	n := st.Index + 1
	switch {
	case st.Action == "fill":
		if !typable[el.Role] {
			return fmt.Errorf("it is a %s, and step %d types text, into a text field", el.Role, n)
		}
	case st.Action == "select":
		return fitChoice(st, scr.Tree, i)
	case checkboxStep(st):
		if el.Role != "checkbox" {
			return fmt.Errorf("it is a %s, and step %d sets a checkbox", el.Role, n)
		}
	case st.Action == "click" || st.Action == "submit":
		if !clickable[el.Role] {
			return fmt.Errorf("it is a %s, which is not clicked: step %d clicks a button, link or other control", el.Role, n)
		}
		word, deletes := reads(scr, i)
		if !files(st) {
			if word != "" && !recorded(st, m, el.Name) {
				return fmt.Errorf("it reads as %s, which saves, sends or deletes, and step %d files nothing", word, n)
			}
			return nil
		}
		f, _ := scr.fact(i)
		if el.Role != "button" && !f.Submit && (word == "" || el.Role != "link" && el.Role != "menu_item") {
			return fmt.Errorf("it is a %s, and step %d files the form: its element is a button", el.Role, n)
		}
		if deletes && !recordedDeletes(st) {
			return fmt.Errorf("it reads as %s, and step %d files the form, it deletes nothing", word, n)
		}
	default:
		return fmt.Errorf("step %d (%s) has no element a model may choose", n, st.Action)
	}
	return nil
}

// fitClick says why element i of scr cannot be clicked before st; nil
// when it can.
func fitClick(st replay.Step, scr Screen, i int) error {
	if secure(scr, i) {
		return errors.New("it is a password field: a click before the step never goes there")
	}
	if word, _ := reads(scr, i); word != "" {
		return fmt.Errorf("it reads as %s: a click before step %d never saves, sends or deletes", word, st.Index+1)
	}
	return nil
}

// fitSecret holds a password field to secret steps and secret steps to
// password fields. Where the executor tells which fields are secure, a
// fill into one it says nothing of is refused: it may be one.
func fitSecret(st replay.Step, scr Screen, i int) error {
	n := st.Index + 1
	if st.Secret {
		if !secure(scr, i) {
			return fmt.Errorf("step %d is a password, and it is not a password field", n)
		}
		return nil
	}
	if secure(scr, i) {
		return fmt.Errorf("it is a password field, and step %d is not a password", n)
	}
	if _, told := scr.fact(i); st.Action == "fill" && scr.Facts != nil && !told {
		return fmt.Errorf("reprise cannot tell whether it is a password field, and step %d types a value", n)
	}
	return nil
}

// secure says whether element i is a password field: the executor says
// so, or it is a text field whose name reads as one.
func secure(scr Screen, i int) bool {
	if f, _ := scr.fact(i); f.Secure {
		return true
	}
	el := scr.Tree[i]
	return el.Role == "text_field" && slices.ContainsFunc(tokens(el.Name), func(w string) bool { return secretWords[w] })
}

// reads returns the word (or "a submit button") that makes element i read
// as one that files or deletes, "" for none, and whether it deletes.
func reads(scr Screen, i int) (string, bool) {
	el := scr.Tree[i]
	if fields[el.Role] {
		return "", false
	}
	var files string
	for _, w := range tokens(el.Name) {
		if deleteWords[w] {
			return fmt.Sprintf("%q", w), true
		}
		if submitWords[w] && files == "" {
			files = fmt.Sprintf("%q", w)
		}
	}
	if f, _ := scr.fact(i); f.Submit && files == "" {
		files = "a submit button"
	}
	return files, false
}

// tokens are a name's words in lower case; "check out" is one.
func tokens(name string) []string {
	ws := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] == "check" && ws[i+1] == "out" {
			ws[i] = "checkout"
			ws = slices.Delete(ws, i+1, i+2)
		}
	}
	return ws
}

// files says whether st files the form: destructive, or a submit.
func files(st replay.Step) bool { return st.Destructive || st.Action == "submit" }

// checkboxStep says whether st is a click that sets a checkbox.
func checkboxStep(st replay.Step) bool {
	if st.Action != "click" {
		return false
	}
	if st.Value == "true" || st.Value == "false" {
		return true
	}
	t := st.Template
	return selector.RoleOf(t.Role) == "checkbox" || t.Target != nil && t.Target.Role == "checkbox"
}

// recordedNames are the names the step was recorded with, as written
// (placeholders for a row's values).
func recordedNames(st replay.Step) []string {
	var out []string
	if t := st.Template.Target; t != nil && t.Name != "" {
		out = append(out, t.Name)
	}
	if st.Template.Label != "" {
		out = append(out, st.Template.Label)
	}
	return out
}

// recorded says whether name (the row's values masked) is a name the step
// was recorded with, case and spacing aside.
func recorded(st replay.Step, m masker, name string) bool {
	got := norm(m.mask(name))
	return got != "" && slices.ContainsFunc(recordedNames(st), func(r string) bool { return norm(r) == got })
}

// recordedDeletes says whether a name the step was recorded with reads as
// deleting.
func recordedDeletes(st replay.Step) bool {
	return slices.ContainsFunc(recordedNames(st), func(r string) bool {
		return slices.ContainsFunc(tokens(r), func(w string) bool { return deleteWords[w] })
	})
}

// fitChoice says why element i cannot take st's choice.
func fitChoice(st replay.Step, t selector.Tree, i int) error {
	el, n := t[i], st.Index+1
	opts := optionsOf(t, i)
	switch el.Role {
	case "combo_box":
		if len(opts) == 0 {
			return nil // its options are not listed (a closed select): the step's own check tells
		}
	case "list", "group":
		if len(opts) == 0 {
			return fmt.Errorf("it is a %s that lists no options, and step %d chooses one", el.Role, n)
		}
	default:
		return fmt.Errorf("it is a %s, and step %d chooses an option, in a combo box or a list of options", el.Role, n)
	}
	want := []string{norm(st.Value)}
	for _, o := range st.Template.Options {
		if norm(o.Label) == want[0] || o.Value != "" && norm(o.Value) == want[0] {
			want = append(want, norm(o.Label), norm(o.Value))
		}
	}
	for _, o := range opts {
		if o != "" && slices.Contains(want, o) {
			return nil
		}
	}
	return fmt.Errorf("none of its %d options listed is the step's value", len(opts))
}

// optionsOf returns the names (normalized) of the options listed inside
// element i: list items and radios.
func optionsOf(t selector.Tree, i int) []string {
	var out []string
	for j := i + 1; j < len(t); j++ {
		if r := t[j].Role; (r == "list_item" || r == "radio") && inside(t, j, i) {
			out = append(out, norm(t[j].Name))
		}
	}
	return out
}

// inside says whether element j is a descendant of element i.
func inside(t selector.Tree, j, i int) bool {
	for p, hops := t[j].Parent, 0; p >= 0 && p < len(t) && hops < 64; p, hops = t[p].Parent, hops+1 {
		if p == i {
			return true
		}
	}
	return false
}

// norm is s in lower case with its spacing collapsed.
func norm(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
