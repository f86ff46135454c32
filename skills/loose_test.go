package skills

import "testing"

func TestLoose(t *testing.T) {
	tests := []struct{ a, b string }{
		{"Côte d'Ivoire", "cote d'ivoire"},
		{"  COTE   D'IVOIRE: ", "côte d'ivoire"},
		{"Plan*", "plan"},
		{"Ångström", "angstrom"},
		{"São Paulo", "SAO PAULO"},
	}
	for _, tt := range tests {
		if Loose(tt.a) != Loose(tt.b) {
			t.Errorf("Loose(%q) = %q, Loose(%q) = %q; want them equal", tt.a, Loose(tt.a), tt.b, Loose(tt.b))
		}
	}
	if Loose("Pro") == Loose("Pro Plus") {
		t.Errorf("Loose makes Pro and Pro Plus one")
	}
}
