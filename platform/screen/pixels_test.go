package screen

import (
	"bytes"
	"testing"
)

func TestByteOf(t *testing.T) {
	tests := []struct {
		mask   uint32
		msb    bool
		want   int
		wantOK bool
	}{
		{0xff0000, false, 2, true},
		{0x0000ff, false, 0, true},
		{0xff0000, true, 1, true},
		{0xff000000, true, 0, true},
		{0xf800, false, 0, false}, // 16-bit 565 green
		{0, false, 0, false},
	}
	for _, tt := range tests {
		got, ok := byteOf(tt.mask, tt.msb)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("byteOf(%#x, %v) = %d, %v; want %d, %v", tt.mask, tt.msb, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestConvert(t *testing.T) {
	// One pixel r=0x11 g=0x22 b=0x33 with a junk pad byte, per layout.
	tests := []struct {
		name string
		l    layout
		in   []byte
	}{
		{"BGRX little-endian", bgrx, []byte{0x33, 0x22, 0x11, 0x99}},
		{"XRGB big-endian", layout{r: 1, g: 2, b: 3}, []byte{0x99, 0x11, 0x22, 0x33}},
		{"RGBX", layout{r: 0, g: 1, b: 2}, []byte{0x11, 0x22, 0x33, 0x99}},
	}
	want := []byte{0x11, 0x22, 0x33, 0xff}
	for _, tt := range tests {
		got := make([]byte, 4)
		convert(got, tt.in, tt.l)
		if !bytes.Equal(got, want) {
			t.Errorf("convert(%s % x) = % x; want % x", tt.name, tt.in, got, want)
		}
		convert(tt.in, tt.in, tt.l) // in place
		if !bytes.Equal(tt.in, want) {
			t.Errorf("convert(%s) in place = % x; want % x", tt.name, tt.in, want)
		}
	}
}
