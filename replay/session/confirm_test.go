package session

import (
	"context"
	"strings"
	"testing"
)

func TestConfirmOn(t *testing.T) {
	for _, tt := range []struct {
		in    string
		shown bool
		want  bool
	}{
		{"y\n", false, true},
		{" YES \n", true, true},
		{"n\n", false, false},
		{"\n", false, false},
		{"", false, false},
	} {
		var out strings.Builder
		got, err := ConfirmOn(strings.NewReader(tt.in), &out, tt.shown)(context.Background(), []int{1, 2}, []string{"/s/1.png", ""})
		if err != nil || got != tt.want {
			t.Errorf("ConfirmOn with %q = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		said := out.String()
		if !strings.Contains(said, "rows [1 2] are filled and not submitted.\n  row 1 as filled: /s/1.png\n") || strings.Contains(said, "row 2 as filled") {
			t.Errorf("ConfirmOn said %q; want the rows and the snapshots there are", said)
		}
		if strings.Contains(said, "on screen") != tt.shown {
			t.Errorf("ConfirmOn(shown %v) said %q", tt.shown, said)
		}
	}
}
