//go:build windows && (amd64 || arm64)

package msaa

import (
	"fmt"
	"syscall"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"
)

// The Win32 and COM calls this package makes beyond golang.org/x/sys/windows,
// all declared here. Only amd64 and arm64 are supported: on both, a VARIANT
// (24 bytes) passed "by value" is passed as a pointer to a copy the callee
// may change, and a POINT (8 bytes) by value travels in one register.
var (
	procAccessibleObjectFromPoint  = win32.OleAcc.NewProc("AccessibleObjectFromPoint")
	procAccessibleObjectFromWindow = win32.OleAcc.NewProc("AccessibleObjectFromWindow")
	procAccessibleChildren         = win32.OleAcc.NewProc("AccessibleChildren")
	procWindowFromAccessibleObject = win32.OleAcc.NewProc("WindowFromAccessibleObject")

	procVariantClear = win32.OleAut32.NewProc("VariantClear")

	procGetWindow      = win32.User32.NewProc("GetWindow")
	procGetDlgCtrlID   = win32.User32.NewProc("GetDlgCtrlID")
	procGetWindowLongW = win32.User32.NewProc("GetWindowLongW")
	procWindowRect     = win32.User32.NewProc("GetWindowRect")
)

// Constants from oleacc.h, winuser.h and wtypes.h.
const (
	childIDSelf = 0
	objidWindow = 0x00000000
	objidClient = 0xFFFFFFFC // OBJID_CLIENT, (LONG)-4

	gaParent = 1
	gaRoot   = 2

	vtEmpty    = 0
	vtI4       = 3
	vtBSTR     = 8
	vtDispatch = 9

	eNotImpl = 0x80004001
)

var (
	iidIAccessible = windows.GUID{Data1: 0x618736e0, Data2: 0x3c3d, Data3: 0x11cf,
		Data4: [8]byte{0x81, 0x0c, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71}}
	iidIUnknown = windows.GUID{Data1: 0, Data2: 0, Data3: 0,
		Data4: [8]byte{0xc0, 0, 0, 0, 0, 0, 0, 0x46}}
)

// hresult is a failed COM call's HRESULT.
type hresult uint32

func (h hresult) Error() string {
	switch h {
	case 0x80004001:
		return "E_NOTIMPL"
	case 0x80004005:
		return "E_FAIL"
	case 0x80070057:
		return "E_INVALIDARG"
	case 0x80004002:
		return "E_NOINTERFACE"
	case 0x80070005:
		return "E_ACCESSDENIED"
	case 0x80020003:
		return "DISP_E_MEMBERNOTFOUND"
	case 0x80010108:
		return "RPC_E_DISCONNECTED" // the application's object is gone
	}
	return fmt.Sprintf("HRESULT 0x%08X", uint32(h))
}

// check turns an HRESULT into an error; S_FALSE is not one.
func check(r uintptr) error {
	if int32(uint32(r)) < 0 {
		return hresult(uint32(r))
	}
	return nil
}

// variant is a VARIANT: 24 bytes on 64-bit Windows.
type variant struct {
	vt  uint16
	_   [3]uint16
	val [2]uintptr
}

func i4(v int32) variant {
	x := variant{vt: vtI4}
	*(*int32)(unsafe.Pointer(&x.val[0])) = v
	return x
}

func (v *variant) int32() int32 { return *(*int32)(unsafe.Pointer(&v.val[0])) }

// dispatch is the IDispatch of a VT_DISPATCH variant, still owned by v.
func (v *variant) dispatch() *comObject { return *(**comObject)(unsafe.Pointer(&v.val[0])) }

// bstr takes the string of a VT_BSTR variant, which v no longer owns.
func (v *variant) takeBSTR() string {
	b := *(**uint16)(unsafe.Pointer(&v.val[0]))
	v.vt = vtEmpty
	return win32.TakeBSTR(b)
}

// clear releases what v holds (an interface, a string) and empties it.
func (v *variant) clear() {
	procVariantClear.Call(uintptr(unsafe.Pointer(v)))
}

// comObject is any COM interface pointer: a pointer to its vtable.
type comObject struct{ vtbl *[32]uintptr }

// The vtable slots used here: IUnknown's three, IDispatch's four, then
// IAccessible's in the order of oleacc.h.
const (
	slotQueryInterface   = 0
	slotAddRef           = 1
	slotRelease          = 2
	slotGetAccParent     = 7
	slotGetAccChildCount = 8
	slotGetAccName       = 10
	slotGetAccValue      = 11
	slotGetAccRole       = 13
	slotGetAccState      = 14
	slotAccLocation      = 22
)

func (o *comObject) call(slot int, args ...uintptr) uintptr {
	r, _, _ := syscall.SyscallN(o.vtbl[slot], append([]uintptr{uintptr(unsafe.Pointer(o))}, args...)...)
	return r
}

func (o *comObject) addRef() { o.call(slotAddRef) }

func (o *comObject) release() {
	if o != nil {
		o.call(slotRelease)
	}
}

func (o *comObject) queryInterface(iid *windows.GUID) (*comObject, error) {
	var out *comObject
	if err := check(o.call(slotQueryInterface, uintptr(unsafe.Pointer(iid)), uintptr(unsafe.Pointer(&out)))); err != nil {
		return nil, err
	}
	if out == nil {
		return nil, hresult(0x80004002)
	}
	return out, nil
}

// iaccessible is an IAccessible interface pointer.
type iaccessible = comObject

// The IAccessible properties take the child id as a VARIANT by value: a
// pointer to a fresh copy each call, since oleacc's own proxies rewrite the
// copy they are given.

func (a *iaccessible) role(child int32) (variant, error) {
	id, out := i4(child), variant{}
	err := check(a.call(slotGetAccRole, uintptr(unsafe.Pointer(&id)), uintptr(unsafe.Pointer(&out))))
	return out, err
}

func (a *iaccessible) state(child int32) (uint32, error) {
	id, out := i4(child), variant{}
	if err := check(a.call(slotGetAccState, uintptr(unsafe.Pointer(&id)), uintptr(unsafe.Pointer(&out)))); err != nil {
		return 0, err
	}
	defer out.clear()
	if out.vt != vtI4 {
		return 0, nil
	}
	return uint32(out.int32()), nil
}

func (a *iaccessible) name(child int32) (string, error) {
	id := i4(child)
	var b *uint16
	err := check(a.call(slotGetAccName, uintptr(unsafe.Pointer(&id)), uintptr(unsafe.Pointer(&b))))
	return win32.TakeBSTR(b), err
}

// value is accValue: a field's text, a slider's position.
func (a *iaccessible) value(child int32) (string, error) {
	id := i4(child)
	var b *uint16
	err := check(a.call(slotGetAccValue, uintptr(unsafe.Pointer(&id)), uintptr(unsafe.Pointer(&b))))
	return win32.TakeBSTR(b), err
}

func (a *iaccessible) parent() (*iaccessible, error) {
	var disp *comObject
	r := a.call(slotGetAccParent, uintptr(unsafe.Pointer(&disp)))
	if err := check(r); err != nil {
		return nil, err
	}
	if disp == nil {
		return nil, nil // S_FALSE: no parent
	}
	defer disp.release()
	return disp.queryInterface(&iidIAccessible)
}

func (a *iaccessible) childCount() (int, error) {
	var n int32
	err := check(a.call(slotGetAccChildCount, uintptr(unsafe.Pointer(&n))))
	return int(n), err
}

// location is the element's screen rectangle (left, top, width, height).
func (a *iaccessible) location(child int32) ([4]int32, error) {
	var r [4]int32
	id := i4(child)
	err := check(a.call(slotAccLocation, uintptr(unsafe.Pointer(&r[0])), uintptr(unsafe.Pointer(&r[1])),
		uintptr(unsafe.Pointer(&r[2])), uintptr(unsafe.Pointer(&r[3])), uintptr(unsafe.Pointer(&id))))
	return r, err
}

// identity is the object's IUnknown pointer value: COM's rule for telling
// whether two interface pointers are one object. It is released at once;
// the value is only compared while both objects are held.
func (a *iaccessible) identity() uintptr {
	u, err := a.queryInterface(&iidIUnknown)
	if err != nil {
		return 0
	}
	u.release()
	return uintptr(unsafe.Pointer(u))
}

// accessibleObjectFromPoint is AccessibleObjectFromPoint: the object at a
// screen point, and the child id of a simple element within it.
func accessibleObjectFromPoint(x, y int) (*iaccessible, int32, error) {
	pt := uintptr(uint32(int32(x))) | uintptr(uint32(int32(y)))<<32
	var acc *iaccessible
	var child variant
	r, _, _ := procAccessibleObjectFromPoint.Call(pt, uintptr(unsafe.Pointer(&acc)), uintptr(unsafe.Pointer(&child)))
	if err := check(r); err != nil {
		return nil, 0, err
	}
	if acc == nil {
		return nil, 0, hresult(0x80004005)
	}
	id := int32(childIDSelf)
	if child.vt == vtI4 {
		id = child.int32()
	}
	child.clear()
	return acc, id, nil
}

func accessibleObjectFromWindow(hwnd windows.HWND, objid uint32) (*iaccessible, error) {
	var acc *iaccessible
	r, _, _ := procAccessibleObjectFromWindow.Call(uintptr(hwnd), uintptr(objid),
		uintptr(unsafe.Pointer(&iidIAccessible)), uintptr(unsafe.Pointer(&acc)))
	if err := check(r); err != nil {
		return nil, err
	}
	if acc == nil {
		return nil, hresult(0x80004005)
	}
	return acc, nil
}

// accessibleChildren is AccessibleChildren: up to n children, each a
// VT_I4 child id or a VT_DISPATCH object the caller must clear.
func accessibleChildren(a *iaccessible, n int) ([]variant, error) {
	vars := make([]variant, n)
	var got int32
	r, _, _ := procAccessibleChildren.Call(uintptr(unsafe.Pointer(a)), 0, uintptr(n),
		uintptr(unsafe.Pointer(&vars[0])), uintptr(unsafe.Pointer(&got)))
	if err := check(r); err != nil {
		return nil, err
	}
	return vars[:min(int(got), n)], nil
}

func windowFromAccessibleObject(a *iaccessible) windows.HWND {
	var h windows.HWND
	r, _, _ := procWindowFromAccessibleObject.Call(uintptr(unsafe.Pointer(a)), uintptr(unsafe.Pointer(&h)))
	if check(r) != nil {
		return 0
	}
	return h
}
