package uia

import (
	"fmt"
	"syscall"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"
)

// The COM and OLE automation calls this package makes beyond
// golang.org/x/sys/windows, all declared here. CoInitializeEx is declared
// again because x/sys turns its S_FALSE ("already initialized") into an
// error.
var (
	procCoInitializeEx = win32.Ole32.NewProc("CoInitializeEx")
	procCoUninitialize = win32.Ole32.NewProc("CoUninitialize")
	procCoCreateInst   = win32.Ole32.NewProc("CoCreateInstance")

	procSysAllocString = win32.OleAut32.NewProc("SysAllocString")
	procVariantClear   = win32.OleAut32.NewProc("VariantClear")
)

// variant is a VARIANT: the type, three reserved words, and the value (16
// bytes on 32-bit Windows, 24 on 64-bit).
type variant struct {
	vt  uint16
	_   [3]uint16
	val [2]uintptr
}

// VARIANT types a listing reads.
const (
	vtBSTR = 8
	vtBool = 11
)

// clear releases what v holds (a string, an interface).
func (v *variant) clear() { procVariantClear.Call(uintptr(unsafe.Pointer(v))) }

const (
	coinitMultithreaded = 0x0
	clsctxInprocServer  = 0x1
)

// IUnknown's slots, first in every vtable.
const (
	mQueryInterface = 0
	mAddRef         = 1
	mRelease        = 2
)

// object is a COM object as a caller sees it: a pointer to its vtable. The
// array bound is only for indexing; no such array is ever made.
type object struct{ vtbl *[256]uintptr }

// The call helpers, one per argument shape. Go pointers travel as
// unsafe.Pointer and become uintptr only in SyscallN's argument list, where
// the compiler keeps what they point to alive and in place.

func (o *object) call(m int) HRESULT {
	r, _, _ := syscall.SyscallN(o.vtbl[m], uintptr(unsafe.Pointer(o)))
	return HRESULT(uint32(r))
}

func (o *object) callU(m int, a uintptr) HRESULT {
	r, _, _ := syscall.SyscallN(o.vtbl[m], uintptr(unsafe.Pointer(o)), a)
	return HRESULT(uint32(r))
}

func (o *object) callP(m int, out unsafe.Pointer) HRESULT {
	r, _, _ := syscall.SyscallN(o.vtbl[m], uintptr(unsafe.Pointer(o)), uintptr(out))
	return HRESULT(uint32(r))
}

func (o *object) callUP(m int, a uintptr, out unsafe.Pointer) HRESULT {
	r, _, _ := syscall.SyscallN(o.vtbl[m], uintptr(unsafe.Pointer(o)), a, uintptr(out))
	return HRESULT(uint32(r))
}

func (o *object) callUUP(m int, a, b uintptr, out unsafe.Pointer) HRESULT {
	r, _, _ := syscall.SyscallN(o.vtbl[m], uintptr(unsafe.Pointer(o)), a, b, uintptr(out))
	return HRESULT(uint32(r))
}

// release releases o when it is not nil.
func (o *object) release() {
	if o != nil {
		o.call(mRelease)
	}
}

// check turns a failed HRESULT into an error naming the call.
func check(call string, hr HRESULT) error {
	if int32(hr) < 0 {
		return fmt.Errorf("uia: %s: %w", call, hr)
	}
	return nil
}

// getObject calls a method whose one argument is an [out] interface
// pointer. A success with a NULL result (no parent, no pattern) returns
// nil, nil.
func getObject(o *object, m int, name string) (*object, error) {
	var out *object
	if err := check(name, o.callP(m, unsafe.Pointer(&out))); err != nil {
		return nil, err
	}
	return out, nil
}

// queryInterface asks o for another of its interfaces.
func queryInterface(o *object, iid *guid) (*object, error) {
	var out *object
	if err := check("QueryInterface", o.callUP(mQueryInterface, uintptr(unsafe.Pointer(iid)), unsafe.Pointer(&out))); err != nil {
		return nil, err
	}
	return out, nil
}

// getString calls a property getter whose [out, retval] is a BSTR, and
// frees the BSTR.
func getString(o *object, m int, name string) (string, error) {
	var b *uint16
	if err := check(name, o.callP(m, unsafe.Pointer(&b))); err != nil {
		return "", err
	}
	return win32.TakeBSTR(b), nil
}

// getInt32 calls a property getter whose [out, retval] is an int, a BOOL
// or an enum.
func getInt32(o *object, m int, name string) (int32, error) {
	var v int32
	err := check(name, o.callP(m, unsafe.Pointer(&v)))
	return v, err
}

// allocBSTR makes a BSTR of s for an [in] argument; the caller frees it
// with freeBSTR. A string with a NUL is cut there.
func allocBSTR(s string) (uintptr, error) {
	p, err := windows.UTF16PtrFromString(s)
	if err != nil {
		return 0, fmt.Errorf("uia: text with a NUL character: %w", err)
	}
	b, _, _ := procSysAllocString.Call(uintptr(unsafe.Pointer(p)))
	if b == 0 {
		return 0, fmt.Errorf("uia: SysAllocString: out of memory")
	}
	return b, nil
}
