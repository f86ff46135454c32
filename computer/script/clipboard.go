package script

import (
	"strconv"

	"github.com/dop251/goja"
)

// clipboardObject is desktop.clipboard: reads and writes go through the
// grant (every refusal runs again: no clipboard while a password is being
// typed) and are audited by length only.
func (r *Runtime) clipboardObject() *goja.Object {
	o := r.vm.NewObject()
	ready := func() {
		if r.plat.Clipboard == nil {
			r.throw(fail(InputFailed, "no clipboard access on this OS"))
		}
		_, _, err := r.broker.Measure(r.run.ctx, r.grantID, false)
		r.must(err)
	}
	_ = o.Set("read", func() goja.Value {
		ready()
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
