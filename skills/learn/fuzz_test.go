package learn

import (
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/skills"
)

// FuzzAnswers checks that the person's answers never panic the parsers,
// and that what ParseConfirm accepts has only valid keys.
func FuzzAnswers(f *testing.F) {
	for _, s := range []string{
		"first_name=First Name\nplan/gold=Enterprise\n",
		"column:internal note=ignore\nfield:Fax=fax\nsuccess:9=text:Customer created; request_ok\n",
		"notes/optional=yes\n# a comment\n\n",
		"=x\nplan/=y\nsuccess:0=url_changed\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseConfirm(text)
		if err != nil {
			return
		}
		for k, v := range m {
			if !validKey(k) || v == "" {
				t.Fatalf("ParseConfirm(%q) kept %q=%q", text, k, v)
			}
			if strings.HasPrefix(k, successKey) {
				_, _ = skills.ParseSuccess(v)
			}
		}
	})
}
