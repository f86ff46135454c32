// Binding helpers: opening a framework, reading a data symbol, binding a
// symbol older systems lack, and binding everything once, a missing symbol
// an error rather than a panic.

package cocoa

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Open opens the framework or library at path.
func Open(path string) (uintptr, error) {
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", path, err)
	}
	return h, nil
}

// DataSymbol reads a pointer-sized data symbol such as
// kCFRunLoopCommonModes: Dlsym gives its address, the value is what is
// stored there.
func DataSymbol(h uintptr, name string) (uintptr, error) {
	addr, err := purego.Dlsym(h, name)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return **(**uintptr)(unsafe.Pointer(&addr)), nil
}

// Optional binds fn to name when the symbol exists, and leaves it nil
// otherwise (a function newer than this macOS).
func Optional(fn any, h uintptr, name string) {
	if addr, err := purego.Dlsym(h, name); err == nil && addr != 0 {
		purego.RegisterFunc(fn, addr)
	}
}

// Once runs a bind function once and keeps its error; purego panics on a
// missing required symbol, and that panic becomes the error.
type Once struct {
	once sync.Once
	err  error
}

// Do runs bind the first time and returns its error every time; what
// names the package binding, in the error.
func (o *Once) Do(what string, bind func() error) error {
	o.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				o.err = fmt.Errorf("%s: bind: %v", what, r)
			}
		}()
		if err := bind(); err != nil {
			o.err = fmt.Errorf("%s: %w", what, err)
		}
	})
	return o.err
}
