package input

import (
	"testing"
	"unsafe"
)

func TestWindowsInputLayout(t *testing.T) {
	if a, b := unsafe.Sizeof(mouseInput{}), unsafe.Sizeof(keyInput{}); a != b {
		t.Fatalf("INPUT sizes differ: mouse %d, keyboard %d", a, b)
	}
	for _, c := range []struct {
		v, origin, size int
		want            int32
	}{{0, 0, 1280, 0}, {1279, 0, 1280, 65535}, {640, 0, 1281, 32768}, {-10, 0, 100, 0}, {100, -100, 201, 65535}} {
		if got := normalize(c.v, c.origin, c.size); got != c.want {
			t.Errorf("normalize(%d, %d, %d) = %d; want %d", c.v, c.origin, c.size, got, c.want)
		}
	}
	if in := unicodeKeys("é\n"); len(in) != 4 || in[0].ki.scan != 'é' || in[0].ki.flags != keyeventfUnicode ||
		in[1].ki.flags != keyeventfUnicode|keyeventfKeyUp || in[2].ki.vk != 0x0d {
		t.Errorf("unicodeKeys(\"é\\n\") = %+v", in)
	}
	if vk, shift, err := vkOf('s'); err != nil || vk != 'S' || shift {
		t.Errorf("vkOf('s') = %#x, %v, %v", vk, shift, err)
	}
}

func TestWindowsInputIdle(t *testing.T) {
	in, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := in.Idle(); err != nil {
		t.Fatal(err)
	}
}
