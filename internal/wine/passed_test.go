package wine

import "testing"

func TestPassed(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want bool
	}{
		{"=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\n", true},
		{"--- PASS: TestA\r\nPASS\r\nwine client error:6f4: sendmsg: Socket operation on non-socket\r\n", true},
		{"--- FAIL: TestA\nFAIL\n", false},
		{"PASS\n--- FAIL: TestB\nFAIL\nwine client error:1\n", false},
		{"=== RUN   TestA\n", false},
		{"", false},
	} {
		if got := Passed(tc.out); got != tc.want {
			t.Errorf("Passed(%q) = %v; want %v", tc.out, got, tc.want)
		}
	}
}

// TestNotStarted: only explorer's refusal to launch, before any test ran,
// is taken for a launch to try again; a test binary that ran and failed
// never is.
func TestNotStarted(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want bool
	}{
		{"Application could not be started, or no application associated with the specified file.\nShellExecuteEx failed: Internal error.\n", true},
		{"=== RUN   TestA\n--- FAIL: TestA\nShellExecuteEx failed: Internal error.\n", false},
		{"=== RUN   TestA\n--- PASS: TestA\nPASS\n", false},
		{"", false},
	} {
		if got := notStarted(tc.out); got != tc.want {
			t.Errorf("notStarted(%q) = %v; want %v", tc.out, got, tc.want)
		}
	}
}
