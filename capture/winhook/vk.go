package winhook

import "github.com/reprise-dev/reprise/platform/keys"

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
type keysymPair struct{ plain, shifted keys.Keysym }

// vkKeysyms maps the virtual-key codes that are not letters, digits or the
// function keys to X keysyms, for a US keyboard layout: the low-level hook
// reports the key, not the character, and the layout-independent assembling in
// capture/x11 wants keysyms. Punctuation on other layouts is approximated by
// its US meaning (the OEM keys' VK codes already follow the layout for
// letters and for most of ,.-+).
var vkKeysyms = map[uint16]keysymPair{
	0x08: {keys.KeyBackSpace, keys.KeyBackSpace},
	0x09: {keys.KeyTab, keys.KeyISOLeftTab},
	0x0d: {keys.KeyReturn, keys.KeyReturn},
	0x13: {0xff13, 0xff13}, // Pause
	0x14: {keys.KeyCapsLock, keys.KeyCapsLock},
	0x1b: {keys.KeyEscape, keys.KeyEscape},
	0x20: {0x20, 0x20},
	0x21: {keys.KeyPageUp, keys.KeyPageUp},
	0x22: {keys.KeyPageDown, keys.KeyPageDown},
	0x23: {keys.KeyEnd, keys.KeyEnd},
	0x24: {keys.KeyHome, keys.KeyHome},
	0x25: {keys.KeyLeft, keys.KeyLeft},
	0x26: {keys.KeyUp, keys.KeyUp},
	0x27: {keys.KeyRight, keys.KeyRight},
	0x28: {keys.KeyDown, keys.KeyDown},
	0x2c: {0xff61, 0xff61}, // Print
	0x2d: {keys.KeyInsert, keys.KeyInsert},
	0x2e: {keys.KeyDelete, keys.KeyDelete},
	0x5d: {0xff67, 0xff67}, // Menu (VK_APPS)
	0x6a: {0xffaa, 0xffaa}, // KP_Multiply
	0x6b: {0xffab, 0xffab}, // KP_Add
	0x6c: {0xffac, 0xffac}, // KP_Separator
	0x6d: {0xffad, 0xffad}, // KP_Subtract
	0x6e: {0xffae, 0xffae}, // KP_Decimal
	0x6f: {0xffaf, 0xffaf}, // KP_Divide
	0x90: {0xff7f, 0xff7f}, // Num_Lock
	0x91: {0xff14, 0xff14}, // Scroll_Lock

	vkShift: {keys.KeyShiftL, keys.KeyShiftL}, vkLShift: {keys.KeyShiftL, keys.KeyShiftL},
	vkRShift:   {keys.KeyShiftR, keys.KeyShiftR},
	vkControl:  {keys.KeyControlL, keys.KeyControlL},
	vkLControl: {keys.KeyControlL, keys.KeyControlL},
	vkRControl: {keys.KeyControlR, keys.KeyControlR},
	vkMenu:     {keys.KeyAltL, keys.KeyAltL}, vkLMenu: {keys.KeyAltL, keys.KeyAltL},
	vkRMenu: {keys.KeyAltR, keys.KeyAltR},
	vkLWin:  {keys.KeySuperL, keys.KeySuperL}, vkRWin: {keys.KeySuperR, keys.KeySuperR},

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
// or zeros for a key the assembling has no use for (media keys, IME keys...).
// extended is the hook's LLKHF_EXTENDED flag: Enter on the keypad.
func keysymsOf(vk uint16, extended bool) (plain, shifted keys.Keysym) {
	switch {
	case vk == vkReturn && extended:
		return keys.KeyKPEnter, keys.KeyKPEnter
	case vk >= '0' && vk <= '9':
		return keys.Keysym(vk), keys.Keysym(digitShifted[vk-'0'])
	case vk >= 'A' && vk <= 'Z':
		return keys.Keysym(vk + 'a' - 'A'), keys.Keysym(vk)
	case vk >= 0x60 && vk <= 0x69: // VK_NUMPAD0..9: KP_0..KP_9
		k := keys.Keysym(0xffb0 + vk - 0x60)
		return k, k
	case vk >= 0x70 && vk <= 0x87: // VK_F1..VK_F24
		k := keys.KeyF1 + keys.Keysym(vk-0x70)
		return k, k
	}
	p := vkKeysyms[vk]
	return p.plain, p.shifted
}
