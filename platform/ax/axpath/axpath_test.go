package axpath

import "testing"

func TestFormatAndLastRole(t *testing.T) {
	for _, tc := range []struct {
		nodes []Node
		path  string
		last  string
	}{
		{[]Node{{Role: "dialog", Name: "New customer"}, {Role: "filler"}, {Role: "text", Ordinal: 2}},
			"dialog[New customer]/filler/text#2", "text"},
		{[]Node{{Role: "frame", Name: `a/b [c] #1 \`}, {Role: "push button", Name: "OK"}},
			`frame[a\/b \[c\] \#1 \\]/push button[OK]`, "push button"},
		{[]Node{{Role: "AXWindow", Name: "a/b [x] #1"}, {Role: "AXSecureTextField", Ordinal: 2}},
			`AXWindow[a\/b \[x\] \#1]/AXSecureTextField#2`, "AXSecureTextField"},
		{[]Node{{Role: "AXWindow", Name: `back\slash`}}, `AXWindow[back\\slash]`, "AXWindow"},
		{nil, "", ""},
	} {
		got := Format(tc.nodes)
		if got != tc.path {
			t.Errorf("Format(%v) = %q; want %q", tc.nodes, got, tc.path)
		}
		if back := Parse(got); Format(back) != got || len(back) != len(tc.nodes) {
			t.Errorf("Parse(%q) = %v; want %v", got, back, tc.nodes)
		}
		if lr := LastRole(got); lr != tc.last {
			t.Errorf("LastRole(%q) = %q; want %q", got, lr, tc.last)
		}
	}
}

func TestOrdinal(t *testing.T) {
	sibs := []Node{{Role: "text"}, {Role: "push button", Name: "OK"}, {Role: "text"}, {Role: "text", Name: "x"}}
	for at, want := range map[int]int{0: 1, 1: 0, 2: 2, 3: 0, 9: 0, -1: 0} {
		if got := Ordinal(sibs, at); got != want {
			t.Errorf("Ordinal(%d) = %d; want %d", at, got, want)
		}
	}
}

// FuzzLastRole checks the parsers against the writer: whatever the names
// hold, the last segment's role comes back, and Parse gives the nodes back.
func FuzzLastRole(f *testing.F) {
	f.Add("dialog", "New customer", "password text", "", 0)
	f.Add("frame", `a/b\`, "text", "x]#[/", 3)
	f.Fuzz(func(t *testing.T, role1, name1, role2, name2 string, ord int) {
		for _, r := range []string{role1, role2} {
			for _, c := range r {
				if c == '/' || c == '[' || c == '#' || c == '\\' {
					return // roles are the trees' role names, which have none of these
				}
			}
		}
		p := Format([]Node{{Role: role1, Name: name1}, {Role: role2, Name: name2, Ordinal: ord}})
		if got := LastRole(p); got != role2 {
			t.Errorf("LastRole(%q) = %q; want %q", p, got, role2)
		}
		if back := Parse(p); len(back) != 2 || Format(back) != p {
			t.Errorf("Parse(%q) = %v; want the two nodes back", p, back)
		}
	})
}
