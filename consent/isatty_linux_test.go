package consent

import (
	"io"
	"os"
	"testing"
)

func TestTerminalAvailableOnAPseudoTerminal(t *testing.T) {
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	if ok, why := (&Terminal{In: ptm, Out: io.Discard}).Available(); !ok {
		t.Fatalf("Terminal.Available on a pseudo-terminal = false, %q; want true", why)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if ok, _ := (&Terminal{In: null, Out: io.Discard}).Available(); ok {
		t.Fatalf("Terminal.Available on %s = true; want false", os.DevNull)
	}
}
