package axmac

import (
	"context"
	"errors"
	"slices"
	"testing"
)

func TestRoleMatches(t *testing.T) {
	for _, tc := range []struct {
		role, sub, want string
		ok              bool
	}{
		{"AXButton", "", "button", true},
		{"AXButton", "AXCloseButton", "button", true},
		{"AXButton", "", "", true},
		{"AXTextField", "", "textbox", true},
		{"AXTextField", "AXSecureTextField", "textbox", true},
		{"AXTextArea", "", "textbox", true},
		{"AXCheckBox", "", "button", false},
		{"AXStaticText", "", "textbox", false},
		{"AXSplitter", "", "splitter", true},
	} {
		if got := roleMatches(tc.role, tc.sub, tc.want); got != tc.ok {
			t.Errorf("roleMatches(%q, %q, %q) = %v; want %v", tc.role, tc.sub, tc.want, got, tc.ok)
		}
	}
}

func TestIsSecure(t *testing.T) {
	for _, tc := range []struct {
		role, sub string
		want      bool
	}{
		{"AXTextField", "AXSecureTextField", true},
		{"AXSecureTextField", "", true},
		{"AXTextField", "", false},
		{"AXTextField", "AXSearchField", false},
	} {
		if got := isSecure(tc.role, tc.sub); got != tc.want {
			t.Errorf("isSecure(%q, %q) = %v; want %v", tc.role, tc.sub, got, tc.want)
		}
	}
}

func TestElementIsPassword(t *testing.T) {
	for path, want := range map[string]bool{
		"AXWindow[Login]/AXSecureTextField[Password]":    true,
		"AXWindow[Login]/AXSecureTextField[Password]#2":  true,
		"AXWindow[Login]/AXTextField[User]":              false,
		"AXWindow[Login]/AXTextField[AXSecureTextField]": false,
		"AXWindow[Login]/AXSecureTextField/AXStaticText": false,
		"": false,
	} {
		if got := (Element{AXPath: path}).IsPassword(); got != want {
			t.Errorf("Element{AXPath: %q}.IsPassword() = %v; want %v", path, got, want)
		}
	}
}

// attrs is an element's string attributes for pickLabel; asking for a
// missing one returns "".
type attrs map[string]string

func TestPickLabel(t *testing.T) {
	for _, tc := range []struct {
		name       string
		el, titled attrs
		want       string
		asks       []string // what pickLabel may ask, in order
	}{
		{"title first", attrs{"AXTitle": "OK", "AXDescription": "d"}, attrs{"AXValue": "v"}, "OK", []string{"AXTitle"}},
		{"the static text that labels a field", attrs{"AXDescription": "d"}, attrs{"AXValue": "First Name"}, "First Name",
			[]string{"AXTitle", "title:AXValue"}},
		{"the labelling element's title", attrs{}, attrs{"AXTitle": "Email"}, "Email",
			[]string{"AXTitle", "title:AXValue", "title:AXTitle"}},
		{"description", attrs{"AXDescription": "Search", "AXPlaceholderValue": "p"}, nil, "Search",
			[]string{"AXTitle", "title:AXValue", "title:AXTitle", "AXDescription"}},
		{"placeholder last", attrs{"AXPlaceholderValue": "Name", "AXValue": "Alice"}, nil, "Name",
			[]string{"AXTitle", "title:AXValue", "title:AXTitle", "AXDescription", "AXPlaceholderValue"}},
		{"nothing: never the value", attrs{"AXValue": "hunter2"}, nil, "",
			[]string{"AXTitle", "title:AXValue", "title:AXTitle", "AXDescription", "AXPlaceholderValue"}},
	} {
		var asked []string
		got := pickLabel(
			func(n string) string { asked = append(asked, n); return tc.el[n] },
			func(n string) string { asked = append(asked, "title:"+n); return tc.titled[n] })
		if got != tc.want {
			t.Errorf("%s: pickLabel = %q; want %q", tc.name, got, tc.want)
		}
		if !slices.Equal(asked, tc.asks) {
			t.Errorf("%s: pickLabel asked %q; want %q", tc.name, asked, tc.asks)
		}
		if slices.Contains(asked, "AXValue") {
			t.Errorf("%s: pickLabel read the element's own AXValue", tc.name)
		}
	}
}

func TestDistinctPIDs(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		self int
		want []int
	}{
		{[]int{501, 77, 501, 88, 77}, 0, []int{501, 77, 88}},
		{[]int{501, 42, 88}, 42, []int{501, 88}},
		{[]int{0, -1, 3}, 42, []int{3}},
		{nil, 42, nil},
	} {
		if got := distinctPIDs(tc.in, tc.self); !slices.Equal(got, tc.want) {
			t.Errorf("distinctPIDs(%v, %d) = %v; want %v", tc.in, tc.self, got, tc.want)
		}
	}
}

func TestAXError(t *testing.T) {
	for code, want := range map[AXError]string{
		-25204: "AXError -25204 (kAXErrorCannotComplete: the application is busy or not answering)",
		-25206: "AXError -25206 (kAXErrorActionUnsupported)",
		-25211: "AXError -25211 (kAXErrorAPIDisabled: this process is not trusted for Accessibility)",
		-1:     "AXError -1",
	} {
		if got := code.Error(); got != want {
			t.Errorf("AXError(%d).Error() = %q; want %q", int32(code), got, want)
		}
	}
}

// tree is a fake accessibility tree: each node's children by name.
type tree map[string][]string

func (tr tree) children(n string) []string { return tr[n] }

func TestSearch(t *testing.T) {
	form := tree{
		"win":   {"group", "ok", "cancel"},
		"group": {"first", "last", "inner"},
		"inner": {"deep"},
	}
	all := func(string) bool { return true }
	buttons := func(n string) bool { return n == "ok" || n == "cancel" || n == "deep" }
	loop := tree{"a": {"b"}, "b": {"a"}} // AX can hand out an ancestor again
	for _, tc := range []struct {
		name            string
		tr              tree
		match           func(string) bool
		maxScan, maxDep int
		want            []string
	}{
		{"tree order, depth first", form, all, 100, 10,
			[]string{"win", "group", "first", "last", "inner", "deep", "ok", "cancel"}},
		{"only matches", form, buttons, 100, 10, []string{"deep", "ok", "cancel"}},
		{"scan bound", form, all, 3, 10, []string{"win", "group", "first"}},
		{"depth bound", form, buttons, 100, 1, []string{"ok", "cancel"}},
		{"depth 0 is the root alone", form, all, 100, 0, []string{"win"}},
		{"a cycle ends at the scan bound", loop, all, 5, 100, []string{"a", "b", "a", "b", "a"}},
	} {
		root := "win"
		if tc.tr["win"] == nil {
			root = "a"
		}
		got, err := search(context.Background(), root, tc.tr.children, tc.match, tc.maxScan, tc.maxDep)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: search = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestSearchStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	children := func(string) []string {
		n++
		if n == 3 {
			cancel()
		}
		return []string{"x", "y"}
	}
	got, err := search(ctx, "root", children, func(string) bool { return true }, 1000, 1000)
	if !errors.Is(err, context.Canceled) || got != nil {
		t.Fatalf("search after cancel = %q, %v; want nil, context.Canceled", got, err)
	}
	if n != 3 {
		t.Errorf("search read %d children lists after cancel; want it to stop at once (3)", n)
	}
}
