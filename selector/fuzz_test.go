package selector

import (
	"encoding/json"
	"image"
	"reflect"
	"strconv"
	"testing"
)

// FuzzParse: any input is a selector or an error, never a panic; a
// selector read back from its JSON is the same selector, and matching it
// against a tree ends.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"role": "button", "name": "Save"}`,
		"role: text_field\nnear: {label: Name, side: right}\nin: {role: group, name: Billing}\nnth: 0\n",
		`{"role": "button", "id": "save", "app": "acme", "window": "*"}`,
		`{"role": "button", "name": "x", "in": {"role": "group", "name": "g", "in": {"role": "window", "name": "*"}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(b)
		if err != nil || !reflect.DeepEqual(s, back) {
			t.Fatalf("Parse(%s) = %v, %v; want %+v", b, back, err, s)
		}
		_, _ = Match(*s, form())
	})
}

// BenchmarkMatch400 resolves a selector in a 400-element window (the
// default listing limit) by role, name and container, against the
// baseline of a loop that compares names only.
func BenchmarkMatch400(b *testing.B) {
	tree := Tree{{Role: "window", Name: "w", Parent: -1, Label: -1, Bounds: image.Rect(0, 0, 1000, 8000)}}
	for g := range 20 {
		tree = append(tree, Element{Role: "group", Name: "group " + strconv.Itoa(g), Parent: 0, Label: -1, Bounds: image.Rect(0, g*400, 1000, g*400+390)})
		parent := len(tree) - 1
		for i := range 19 {
			tree = append(tree, Element{Role: "text_field", Name: "field " + strconv.Itoa(i), Parent: parent, Label: -1,
				Bounds: image.Rect(10, g*400+i*20, 300, g*400+i*20+18)})
		}
	}
	sel := Selector{Role: "text_field", Name: "field 7", In: &Selector{Role: "group", Name: "group 13"}}
	b.Run("selector", func(b *testing.B) {
		for b.Loop() {
			if _, err := Match(sel, tree); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline", func(b *testing.B) {
		for b.Loop() {
			found := -1
			for i := range tree {
				if tree[i].Name == "field 7" && tree[tree[i].Parent].Name == "group 13" {
					found = i
				}
			}
			if found < 0 {
				b.Fatal("not found")
			}
		}
	})
}
