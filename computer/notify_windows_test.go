package computer

import (
	"context"
	"testing"
	"time"
	"unsafe"

	"github.com/reprise-dev/reprise/internal/wine"
)

// TestWineTrayNotifies: the notification area takes reprise's icon and a
// balloon for each grant event (Shell_NotifyIconW answers TRUE), under
// Wine's desktop. Run by notify_wine_linux_test.go.
func TestWineTrayNotifies(t *testing.T) {
	wine.InDesktop(t)
	if got := unsafe.Sizeof(notifyIconData{}); got != 976 {
		t.Fatalf("NOTIFYICONDATAW is %d bytes; want 976 on 64-bit Windows", got)
	}
	n := NewNotifier()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, s := range []string{"reprise may operate notepad", "reprise stopped"} {
		if err := n.Notify(ctx, s, "A grant is active. Run `reprise stop` to end it."); err != nil {
			t.Fatalf("notify %q: %v", s, err)
		}
	}
	long := make([]byte, 600)
	for i := range long {
		long[i] = 'x'
	}
	if err := n.Notify(ctx, string(long), string(long)); err != nil {
		t.Fatalf("a text longer than the balloon's: %v", err)
	}
}
