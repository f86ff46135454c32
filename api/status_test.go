package api

import (
	"strings"
	"testing"
)

func TestStoreAndDiskState(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		st          Status
		store, disk string
	}{
		{Status{FreeBytes: 5 << 20, MinFreeBytes: 1 << 20}, "being checked", "5 MB free"},
		{Status{StoreChecked: true, FreeBytes: 5 << 20}, "reads back whole", "5 MB free"},
		{Status{StoreChecked: true, Damaged: []RecordingDamage{{}}, FreeBytes: 1 << 20, MinFreeBytes: 2 << 20}, "1 recording(s) damaged", "under the 2 MB a recording needs"},
	} {
		if got := tc.st.StoreState(); !strings.Contains(got, tc.store) {
			t.Errorf("StoreState() = %q; want it to say %q", got, tc.store)
		}
		if got := tc.st.DiskState(); !strings.Contains(got, tc.disk) {
			t.Errorf("DiskState() = %q; want it to say %q", got, tc.disk)
		}
	}
}
