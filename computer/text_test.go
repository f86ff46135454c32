package computer

import (
	"errors"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
)

func TestWriteTargets(t *testing.T) {
	var b strings.Builder
	err := WriteTargets(&b, []api.Target{
		{Window: api.Window{ID: "w1", App: "gedit", Title: "notes"}},
		{Window: api.Window{ID: "w2", App: "reprise", Title: "consent"}, Refused: "WINDOW_REFUSED", Reason: "reprise's own"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "WINDOW  APP      TITLE    REFUSED\nw1      gedit    notes    -\nw2      reprise  consent  WINDOW_REFUSED: reprise's own\n"
	if b.String() != want {
		t.Errorf("WriteTargets = %q; want %q", b.String(), want)
	}
}

func TestWriteGrant(t *testing.T) {
	for _, tt := range []struct {
		r    api.GrantReply
		want string
	}{
		{api.GrantReply{}, "no grant is active\n"},
		{api.GrantReply{Active: true, ID: "g1", Issuer: "person", Scope: ScopeWindow, App: "gedit", Title: "notes", WindowID: "w1", Revision: 2, Capture: CapturePixels, Budget: 9},
			"grant g1 by person: window scope on gedit (notes, window w1), revision 2, " + CapturePixels + ", 9 actions left\n"},
	} {
		var b strings.Builder
		if err := WriteGrant(&b, tt.r); err != nil || b.String() != tt.want {
			t.Errorf("WriteGrant(%+v) = %q, %v; want %q", tt.r, b.String(), err, tt.want)
		}
	}
}

func TestWriteRun(t *testing.T) {
	thrown := &ops.Error{Code: ops.CodeInvalidRequest, Message: "boom"}
	for _, tt := range []struct {
		reply ops.ComputerRunResult
		want  string
		err   error
	}{
		{ops.ComputerRunResult{}, "Ran computer code\n", nil},
		{ops.ComputerRunResult{Output: []string{"hi"}, Return: "42"}, "hi\n42\n", nil},
		{ops.ComputerRunResult{Screenshots: []ops.ComputerShot{{Path: "/s.png", Width: 3, Height: 2, Target: "w1"}}}, "screenshot of w1: /s.png (3x2)\n", nil},
		{ops.ComputerRunResult{Output: []string{"before"}, Return: "x", Error: thrown}, "before\n", thrown},
	} {
		var b strings.Builder
		err := WriteRun(&b, tt.reply)
		if b.String() != tt.want || !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
			t.Errorf("WriteRun(%+v) = %q, %v; want %q, %v", tt.reply, b.String(), err, tt.want, tt.err)
		}
	}
}
