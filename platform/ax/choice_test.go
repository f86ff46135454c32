package ax

import "testing"

func TestOptionIndex(t *testing.T) {
	opts := []string{"France", "Germany", "Côte d'Ivoire", "Twice", "Twice"}
	for _, tc := range []struct {
		name string
		want int
	}{
		{"Germany", 1}, {"Côte d'Ivoire", 2}, {"germany", -1}, {"Cote d'Ivoire", -1}, {"Twice", -1}, {"", -1},
	} {
		if got := OptionIndex(opts, tc.name); got != tc.want {
			t.Errorf("OptionIndex(%q) = %d; want %d (exact names only, never a guess)", tc.name, got, tc.want)
		}
	}
}
