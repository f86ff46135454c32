package winhook

import "github.com/reprise-dev/reprise/capture/x11"

// Windows virtual-key codes with a meaning of their own (winuser.h).
const (
	vkShift    = 0x10
	vkControl  = 0x11
	vkMenu     = 0x12
	vkLShift   = 0xa0
	vkRShift   = 0xa1
	vkLControl = 0xa2
	vkRControl = 0xa3
	vkLMenu    = 0xa4
	vkRMenu    = 0xa5
	vkLWin     = 0x5b
	vkRWin     = 0x5c
	vkReturn   = 0x0d
)

// keysymPair is a key's X keysyms without and with Shift.
type keysymPair struct{ plain, shifted x11.Keysym }

// vkKeysyms maps the virtual-key codes that are not letters, digits or the
// function keys to X keysyms, for a US keyboard layout: the low-level hook
// reports the key, not the character, and the layout-independent folding in
// capture/x11 wants keysyms. Punctuation on other layouts is approximated by
// its US meaning (the OEM keys' VK codes already follow the layout for
// letters and for most of ,.-+).
var vkKeysyms = map[uint16]keysymPair{
	0x08: {x11.KeyBackSpace, x11.KeyBackSpace},
	0x09: {x11.KeyTab, x11.KeyISOLeftTab},
	0x0d: {x11.KeyReturn, x11.KeyReturn},
	0x13: {0xff13, 0xff13}, // Pause
	0x14: {x11.KeyCapsLock, x11.KeyCapsLock},
	0x1b: {x11.KeyEscape, x11.KeyEscape},
	0x20: {0x20, 0x20},
	0x21: {x11.KeyPageUp, x11.KeyPageUp},
	0x22: {x11.KeyPageDown, x11.KeyPageDown},
	0x23: {x11.KeyEnd, x11.KeyEnd},
	0x24: {x11.KeyHome, x11.KeyHome},
	0x25: {x11.KeyLeft, x11.KeyLeft},
	0x26: {x11.KeyUp, x11.KeyUp},
	0x27: {x11.KeyRight, x11.KeyRight},
	0x28: {x11.KeyDown, x11.KeyDown},
	0x2c: {0xff61, 0xff61}, // Print
	0x2d: {x11.KeyInsert, x11.KeyInsert},
	0x2e: {x11.KeyDelete, x11.KeyDelete},
	0x5d: {0xff67, 0xff67}, // Menu (VK_APPS)
	0x6a: {0xffaa, 0xffaa}, // KP_Multiply
	0x6b: {0xffab, 0xffab}, // KP_Add
	0x6c: {0xffac, 0xffac}, // KP_Separator
	0x6d: {0xffad, 0xffad}, // KP_Subtract
	0x6e: {0xffae, 0xffae}, // KP_Decimal
	0x6f: {0xffaf, 0xffaf}, // KP_Divide
	0x90: {0xff7f, 0xff7f}, // Num_Lock
	0x91: {0xff14, 0xff14}, // Scroll_Lock

	vkShift: {x11.KeyShiftL, x11.KeyShiftL}, vkLShift: {x11.KeyShiftL, x11.KeyShiftL},
	vkRShift:   {x11.KeyShiftR, x11.KeyShiftR},
	vkControl:  {x11.KeyControlL, x11.KeyControlL},
	vkLControl: {x11.KeyControlL, x11.KeyControlL},
	vkRControl: {x11.KeyControlR, x11.KeyControlR},
	vkMenu:     {x11.KeyAltL, x11.KeyAltL}, vkLMenu: {x11.KeyAltL, x11.KeyAltL},
	vkRMenu: {x11.KeyAltR, x11.KeyAltR},
	vkLWin:  {x11.KeySuperL, x11.KeySuperL}, vkRWin: {x11.KeySuperR, x11.KeySuperR},

	0xba: {';', ':'},
	0xbb: {'=', '+'},
	0xbc: {',', '<'},
	0xbd: {'-', '_'},
	0xbe: {'.', '>'},
	0xbf: {'/', '?'},
	0xc0: {'`', '~'},
	0xdb: {'[', '{'},
	0xdc: {'\\', '|'},
	0xdd: {']', '}'},
	0xde: {'\'', '"'},
	0xe2: {'<', '>'}, // VK_OEM_102, the ISO key beside left Shift
}

// digitShifted are the US layout's shifted digits, '0' first.
const digitShifted = ")!@#$%^&*("

// keysymsOf returns the X keysyms of virtual key vk without and with Shift,
// or zeros for a key the folding has no use for (media keys, IME keys...).
// extended is the hook's LLKHF_EXTENDED flag: Enter on the keypad.
func keysymsOf(vk uint16, extended bool) (plain, shifted x11.Keysym) {
	switch {
	case vk == vkReturn && extended:
		return x11.KeyKPEnter, x11.KeyKPEnter
	case vk >= '0' && vk <= '9':
		return x11.Keysym(vk), x11.Keysym(digitShifted[vk-'0'])
	case vk >= 'A' && vk <= 'Z':
		return x11.Keysym(vk + 'a' - 'A'), x11.Keysym(vk)
	case vk >= 0x60 && vk <= 0x69: // VK_NUMPAD0..9: KP_0..KP_9
		k := x11.Keysym(0xffb0 + vk - 0x60)
		return k, k
	case vk >= 0x70 && vk <= 0x87: // VK_F1..VK_F24
		k := x11.KeyF1 + x11.Keysym(vk-0x70)
		return k, k
	}
	p := vkKeysyms[vk]
	return p.plain, p.shifted
}
