package api

import (
	"fmt"
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

func TestStatusWriteText(t *testing.T) {
	t.Parallel()
	st := Status{PID: 42, UptimeSeconds: 61.4, Version: "v1", MachineID: "m1", ClientURL: "nats://127.0.0.1:1", Keys: "keychain",
		Streams:   []StreamStatus{{Name: "RECORDINGS", Messages: 3, Bytes: 300, Lost: 1}},
		Recording: &RecordingStatus{ID: "rec_1", Steps: 5, Lost: 2}, StoreChecked: true,
		Damaged: []RecordingDamage{{RecordingID: "rec_0", Problem: "step 2 unreadable"}}, FreeBytes: 3 << 20}
	var b strings.Builder
	if err := st.WriteText(&b, "/data"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"daemon             running (pid 42, up 1m1s, v1)\n",
		"data dir           /data\n",
		"stream RECORDINGS  3 messages, 300 bytes, 1 lost (damaged on disk)\n",
		"recording          rec_1: 5 steps, 2 lost\n",
		"damaged            rec_0: step 2 unreadable\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("WriteText = %q; want it to hold %q", b.String(), want)
		}
	}
}

func TestStoreProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		st   Status
		want string
	}{
		{Status{StoreChecked: true, FreeBytes: 5 << 20, MinFreeBytes: 1 << 20}, ""},
		{Status{FreeBytes: 1 << 20, MinFreeBytes: 2 << 20}, "the disk 1 MB free: under the 2 MB"},
		{Status{Damaged: []RecordingDamage{{"rec_1", "gap"}, {"rec_2", "seal"}}}, "damaged: rec_1 (gap); rec_2 (seal)"},
	} {
		err := tc.st.StoreProblem()
		if got := fmt.Sprint(err); (tc.want == "") != (err == nil) || !strings.Contains(got, tc.want) {
			t.Errorf("StoreProblem() = %v; want %q", err, tc.want)
		}
	}
}
