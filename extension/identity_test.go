package extension

import "testing"

func TestIDFromPinnedKey(t *testing.T) {
	// The id Chrome shows for the unpacked extension, computed from the same
	// key by Chrome's own rule; pinned so a changed key is noticed.
	const want = "efgcbnfcmgdldhbnpjigkcgeiilkifol"
	if got, err := KeyID(PublicKey); err != nil || got != want {
		t.Fatalf("KeyID(pinned key) = %q, %v; want %q", got, err, want)
	}
	if _, err := KeyID("not base64!"); err == nil {
		t.Fatal("KeyID(garbage) succeeded; want an error")
	}
}
