package skills

import "testing"

func TestFormatDate(t *testing.T) {
	tests := []struct{ cell, format, want string }{
		{"1990-03-05", "MM/DD/YYYY", "03/05/1990"},
		{"1990-03-05", "M/D/YYYY", "3/5/1990"},
		{"1990-03-05", "D", "5"},
		{"1990-03-05", "DD", "05"},
		{"1990-03-05", "MMMM", "March"},
		{"1990-03-05", "MMM", "Mar"},
		{"1990-03-05", "YY", "90"},
		{"1990-03-05T10:30", "D MMMM YYYY", "5 March 1990"},
		{"1990-03-05", "DD.MM.YYYY", "05.03.1990"},
	}
	for _, tt := range tests {
		if got, err := FormatDate(tt.cell, tt.format); err != nil || got != tt.want {
			t.Errorf("FormatDate(%q, %q) = %q, %v; want %q", tt.cell, tt.format, got, err, tt.want)
		}
	}
	for _, bad := range []struct{ cell, format string }{{"03/05/1990", "D"}, {"1990-02-30", "D"}, {"1990-03-05", "at 2pm"}, {"1990-03-05", ""}} {
		if got, err := FormatDate(bad.cell, bad.format); err == nil {
			t.Errorf("FormatDate(%q, %q) = %q; want an error", bad.cell, bad.format, got)
		}
	}
}
