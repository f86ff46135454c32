package script

import (
	"strconv"

	"github.com/dop251/goja"

	"github.com/reprise-dev/reprise/computer"
)

// clipboardObject is desktop.clipboard: reads and writes go through the
// grant (every refusal runs again: no clipboard while a password is being
// typed) and are audited by length only.
func (r *Runtime) clipboardObject() *goja.Object {
	o := r.vm.NewObject()
	ready := func() computer.Window {
		if r.plat.Clipboard == nil {
			r.throw(fail(InputFailed, "no clipboard access on this OS"))
		}
		_, w, err := r.broker.Measure(r.run.ctx, r.grantID, false)
		r.must(err)
		return w
	}
	_ = o.Set("read", func() goja.Value {
		w := ready()
		if r.run.readOnly {
			// A read-only run may look at the granted window, not at what
			// another application (a password manager, a bank) copied.
			pid, err := r.plat.Clipboard.Owner(r.run.ctx)
			if err != nil {
				r.throw(fail(PermissionDenied, "a read-only run reads the clipboard only when the granted window's application put it there, and whose it is cannot be told: %v", err))
			}
			if pid == 0 {
				return r.vm.ToValue("")
			}
			if pid != w.PID {
				r.throw(fail(PermissionDenied, "the clipboard holds another application's copy: a read-only run reads only what the granted window's application copied"))
			}
		}
		text, err := r.plat.Clipboard.Read(r.run.ctx)
		if err != nil {
			r.throw(fail(InputFailed, "read the clipboard: %v", err))
		}
		r.must(r.broker.Note(r.run.ctx, r.grantID, "computer.clipboard.read", map[string]string{"text_length": strconv.Itoa(len([]rune(text)))}))
		return r.vm.ToValue(text)
	})
	_ = o.Set("write", func(text string) goja.Value {
		r.writable("clipboard.write()")
		ready()
		if err := r.plat.Clipboard.Write(r.run.ctx, text); err != nil {
			r.throw(fail(InputFailed, "write the clipboard: %v", err))
		}
		r.must(r.broker.Note(r.run.ctx, r.grantID, "computer.clipboard.write", map[string]string{"text_length": strconv.Itoa(len([]rune(text)))}))
		return goja.Undefined()
	})
	return o
}
