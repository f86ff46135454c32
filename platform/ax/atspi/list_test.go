package atspi

import (
	"bufio"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/selector"
)

// conformanceForm is selectortest's form in GTK 3; manyForm a window of
// many buttons, for the cost of a listing.
const (
	conformanceForm  = "../../../selector/selectortest/testdata/form_gtk.py"
	conformanceTitle = "Selector conformance"
	manyForm         = "testdata/many_gtk.py"
)

// startGTK runs a GTK script on a desktop of its own, waits for it to print
// "ready", and returns an Enricher once the window title is listed.
func startGTK(t testing.TB, title, script string, args ...string) *Enricher {
	t.Helper()
	d := xvfb.Start(t)
	if err := exec.Command("/usr/bin/python3", "-c", "import gi; gi.require_version('Gtk', '3.0')").Run(); err != nil {
		t.Fatalf("python3-gi with GTK 3 is not installed: run scripts/deps (gir1.2-gtk-3.0 python3-gi): %v", err)
	}
	activateA11yBus(t, d.Display)
	cmd := exec.Command("/usr/bin/python3", append([]string{script}, args...)...)
	cmd.Env = d.Env()
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", script, err)
	}
	exited := make(chan struct{})
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "ready" {
				close(ready)
			}
		}
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	select {
	case <-ready:
	case <-exited:
		t.Fatalf("%s exited before it was ready: %s", script, stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatalf("%s was not ready in 20 s: %s", script, stderr.String())
	}
	e, err := New(Options{Display: d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	// The window is drawn before its application is on the registry.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		if nodes, err := e.List(ctx, title, 10); err == nil && len(nodes) > 1 {
			return e
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%q never appeared on the accessibility bus", title)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestListConformanceForm reads the GTK form as a selector sees it: the
// frames are named groups, "Name:" is linked to its entry and names it,
// "City" is not, the entries' text is read, Cancel has its id, and every
// node has the path At would write for it.
func TestListConformanceForm(t *testing.T) {
	e := startGTK(t, conformanceTitle, conformanceForm)
	ctx := context.Background()
	nodes, err := e.List(ctx, "conformance", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range nodes {
		t.Logf("%3d %-10s %-14q id=%q value=%q label=%d parent=%d %v %s", i, n.Role, n.Name, n.ID, n.Value, n.LabelIndex, n.Parent, n.Bounds, n.AXPath)
	}
	if len(nodes) == 0 || nodes[0].Role != "window" || nodes[0].Name != conformanceTitle || nodes[0].Parent != -1 {
		t.Fatalf("List()[0] = %+v; want the window first", nodes)
	}
	count := map[string]int{}
	for i, n := range nodes {
		if n.Window != conformanceTitle || n.App == "" {
			t.Errorf("node %d: window %q app %q; want the form's title and an application", i, n.Window, n.App)
		}
		if i > 0 && (n.Parent < 0 || n.Parent >= i) {
			t.Errorf("node %d: parent %d; want an earlier node", i, n.Parent)
		}
		count[n.Role+" "+n.Name]++
		switch {
		case n.Role == "textbox" && strings.HasSuffix(n.Value, "-name"):
			if n.Name != "Name:" || n.LabelIndex < 0 || nodes[n.LabelIndex].Name != "Name:" {
				t.Errorf("entry %q: name %q label %d; want named and linked to Name:", n.Value, n.Name, n.LabelIndex)
			}
		case n.Role == "textbox" && strings.HasSuffix(n.Value, "-city"):
			// Not linked, but named by the label beside it, as Find names it.
			if n.LabelIndex != -1 || n.Name != "City" {
				t.Errorf("entry %q: label %d, name %q; want none (City is not linked) and named City by position", n.Value, n.LabelIndex, n.Name)
			}
		case n.Name == "Cancel" && n.ID != "1003":
			t.Errorf("Cancel: id %q; want 1003", n.ID)
		}
	}
	for what, want := range map[string]int{"group Billing": 1, "group Shipping": 1, "button Save": 2, "button Add": 3, "checkbox Gift wrap": 1, "button Cancel": 1} {
		if count[what] != want {
			t.Errorf("%d nodes are %s; want %d", count[what], what, want)
		}
	}
	if count["textbox City"]+count["textbox Name:"] != 4 {
		t.Errorf("the form lists %v; want four text boxes", count)
	}
	// The path of a node is the path At writes for the element there.
	for _, n := range nodes {
		if n.Name != "Save" {
			continue
		}
		c := n.Bounds.Min.Add(n.Bounds.Max).Div(2)
		at, err := e.At(ctx, c.X, c.Y)
		if err != nil || at == nil || at.AXPath == nil || *at.AXPath != n.AXPath {
			t.Errorf("At(%v) = %+v, %v; want the path %q", c, at, err, n.AXPath)
		}
	}
	if got, err := e.List(ctx, "No such window", 10); err != ErrNoWindow {
		t.Errorf("List(No such window) = %d nodes, %v; want ErrNoWindow", len(got), err)
	}
	if got, err := e.List(ctx, "conformance", 5); err != nil || len(got) > 5 {
		t.Errorf("List(limit 5) = %d nodes, %v; want at most 5", len(got), err)
	}
}

// TestListPassword: the zenity form's password field is marked and its
// text never read; the other fields' text is.
func TestListPassword(t *testing.T) {
	f := startForm(t)
	ctx := context.Background()
	fields := f.fields(t)
	for i, el := range fields {
		if err := f.e.SetText(ctx, el, "v"+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	nodes, err := f.e.List(ctx, formTitle, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var secret, plain int
	for _, n := range nodes {
		switch {
		case n.Password:
			secret++
			if n.Value != "" || n.Role != "textbox" {
				t.Errorf("password field: role %q value %q; want a textbox whose text is not read", n.Role, n.Value)
			}
		case n.Role == "textbox":
			plain++
			if n.Value != "v0" && n.Value != "v1" {
				t.Errorf("field %s: value %q; want its text", n.AXPath, n.Value)
			}
		}
	}
	if secret != 1 || plain != 2 {
		t.Errorf("List found %d password and %d other fields; want 1 and 2", secret, plain)
	}
}

// BenchmarkList lists a window of 400 elements, as a step resolving its
// target does each time it looks; ms/list is the figure to watch.
func BenchmarkList(b *testing.B) {
	e := startGTK(b, "Many", manyForm, "196")
	ctx := context.Background()
	n := 0
	for b.Loop() {
		nodes, err := e.List(ctx, "Many", 5000)
		if err != nil {
			b.Fatal(err)
		}
		n = len(nodes)
	}
	b.ReportMetric(float64(n), "nodes")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/list")
}

// TestListRole is AT-SPI's row of the role table: what List calls each
// role GTK and Qt give, and the selector role that comes to.
func TestListRole(t *testing.T) {
	for _, tc := range []struct {
		atspi, name, aria, sel string
	}{
		{"push button", "Save", "button", "button"},
		{"toggle button", "Bold", "button", "button"},
		{"text", "", "textbox", "text_field"},
		{"entry", "", "textbox", "text_field"},
		{"password text", "", "textbox", "text_field"},
		{"spin button", "", "spinbutton", "text_field"},
		{"label", "City", "label", "text"},
		{"static", "City", "statictext", "text"},
		{"heading", "Title", "heading", "text"},
		{"check box", "Gift wrap", "checkbox", "checkbox"},
		{"switch", "Wi-Fi", "switch", "checkbox"},
		{"radio button", "Air", "radio", "radio"},
		{"combo box", "", "combobox", "combo_box"},
		{"list box", "", "listbox", "combo_box"},
		{"list item", "One", "listitem", "list_item"},
		{"tree item", "One", "treeitem", "list_item"},
		{"table row", "", "row", "list_item"},
		{"menu item", "Open", "menuitem", "menu_item"},
		{"check menu item", "Wrap", "menuitemcheckbox", "menu_item"},
		{"radio menu item", "Small", "menuitemradio", "menu_item"},
		{"page tab", "General", "tab", "tab"},
		{"link", "Help", "link", "link"},
		{"table cell", "", "cell", "cell"},
		{"column header", "Name", "columnheader", "cell"},
		{"table column header", "Name", "columnheader", "cell"},
		{"list", "", "list", "list"},
		{"table", "", "table", "list"},
		{"tree table", "", "treegrid", "list"},
		{"page tab list", "", "tablist", "list"},
		{"panel", "Billing", "group", "group"}, // a GtkFrame with its label
		{"filler", "Options", "group", "group"},
		{"grouping", "", "group", "group"},
		{"tool bar", "", "toolbar", "group"},
		{"panel", "", "panel", "other"}, // layout, not a group a person names
		{"filler", "", "filler", "other"},
		{"frame", "Selector conformance", "window", "window"},
		{"dialog", "New customer", "dialog", "window"},
		{"alert", "Error", "alertdialog", "window"},
		{"scroll bar", "", "scroll bar", "other"},
		{"Push Button", "", "button", "button"},
	} {
		got := listRole(tc.atspi, tc.name)
		if got != tc.aria {
			t.Errorf("listRole(%q, %q) = %q; want %q", tc.atspi, tc.name, got, tc.aria)
		}
		if s := selector.RoleOf(got); s != tc.sel {
			t.Errorf("selector.RoleOf(listRole(%q, %q)) = %q; want %q", tc.atspi, tc.name, s, tc.sel)
		}
	}
}
