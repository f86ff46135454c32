package script

import (
	"fmt"
	"reflect"

	"github.com/dop251/goja"
)

// What one builtin call may do. The engine is interrupted between its
// instructions, never inside a builtin: a call sized by a number the
// script picks ("x".repeat(2**36), new ArrayBuffer(2**36)) allocates it at
// once and the Go runtime dies out of memory, taking the daemon with it,
// and one walking a length the script set (new Array(2**32-1).forEach(f),
// .join(), .fill()) runs in Go for a minute, deaf to Stop. So those
// builtins refuse, with a RangeError, any size no run could hold within
// its memory limit: more than maxLen elements (or characters, or bytes of
// a buffer), maxLen being the limit over bytesPerElement. Each size is read
// once and the builtin called with what was read, so a valueOf or a getter
// cannot show the check one number and the builtin another; an array-like
// whose length only script code can tell (an accessor, a proxy) is refused.
//
// Not covered, and bounded by the run's budget and Stop only between
// instructions: spreading a huge sparse array ([...a], f(...a)), and
// JSON.stringify of one.
const (
	bytesPerElement = 16 // what one element of an array takes, at the least
	maxCallDepth    = 10000
)

// guard wraps the builtins above in the runtime's engine.
func (r *Runtime) guard() {
	vm := r.vm
	global := vm.GlobalObject()
	get := func(o *goja.Object, path ...string) *goja.Object {
		for _, k := range path {
			o = o.Get(k).ToObject(vm)
		}
		return o
	}
	gopd, _ := goja.AssertFunction(get(global, "Object").Get("getOwnPropertyDescriptor"))
	g := &guarded{r: r, vm: vm, gopd: gopd}

	// Array methods walk their receiver, and concat its array arguments.
	arrayProto := get(global, "Array", "prototype")
	for _, name := range arrayProto.GetOwnPropertyNames() {
		switch name {
		case "constructor", "length", "keys", "values", "entries": // iterators go a step per instruction
			continue
		}
		g.wrap(arrayProto, name, func(this goja.Value, args []goja.Value) (goja.Value, []goja.Value) {
			g.walkable(this)
			for _, a := range args {
				if o, ok := a.(*goja.Object); ok && o.ClassName() == "Array" {
					g.walkable(a)
				}
			}
			return this, args
		})
	}
	array := get(global, "Array")
	g.wrap(array, "from", g.walksArg(0))
	typedArray := get(global, "Uint8Array").Prototype()
	g.wrap(typedArray, "from", g.walksArg(0))
	g.wrap(get(global, "Function", "prototype"), "apply", g.walksArg(1))
	reflectObj := get(global, "Reflect")
	g.wrap(reflectObj, "apply", g.walksArg(2))
	g.wrap(reflectObj, "construct", g.walksArg(1))

	// Strings: what repeat and pad make is known before they make it;
	// what split, match and replace make grows with the string.
	stringProto := get(global, "String", "prototype")
	g.wrap(stringProto, "repeat", func(this goja.Value, args []goja.Value) (goja.Value, []goja.Value) {
		s := g.str(this)
		n := g.number(args, 0)
		if n.ToFloat()*float64(g.length(s)) > float64(g.maxLen()) {
			g.tooBig("a string of %.0f characters", n.ToFloat()*float64(g.length(s)))
		}
		return s, []goja.Value{n}
	})
	for _, name := range []string{"padStart", "padEnd"} {
		g.wrap(stringProto, name, func(this goja.Value, args []goja.Value) (goja.Value, []goja.Value) {
			s := g.str(this)
			n := g.number(args, 0)
			if n.ToFloat() > float64(g.maxLen()) {
				g.tooBig("a string of %.0f characters", n.ToFloat())
			}
			return s, append([]goja.Value{n}, args[min(1, len(args)):]...)
		})
	}
	for _, name := range []string{"split", "match", "matchAll", "replace", "replaceAll"} {
		g.wrap(stringProto, name, func(this goja.Value, args []goja.Value) (goja.Value, []goja.Value) {
			s := g.str(this)
			if g.length(s) > g.maxLen() {
				g.tooBig("%s on a string of %d characters", name, g.length(s))
			}
			return s, args
		})
	}
	regexpProto := get(global, "RegExp", "prototype")
	symbols := get(global, "Symbol")
	for _, name := range []string{"split", "match", "matchAll", "replace"} {
		sym, ok := symbols.Get(name).(*goja.Symbol)
		if !ok {
			continue
		}
		g.wrapSym(regexpProto, sym, func(this goja.Value, args []goja.Value) (goja.Value, []goja.Value) {
			if len(args) == 0 {
				return this, args
			}
			s := g.str(args[0])
			if g.length(s) > g.maxLen() {
				g.tooBig("%s on a string of %d characters", name, g.length(s))
			}
			return this, append([]goja.Value{s}, args[1:]...)
		})
	}

	// Buffers and typed arrays are allocated whole by their constructor.
	g.construct(global, "ArrayBuffer", func(args []goja.Value) []goja.Value {
		n := g.number(args, 0)
		if n.ToFloat() > float64(g.maxLen()) {
			g.tooBig("an ArrayBuffer of %.0f bytes", n.ToFloat())
		}
		return []goja.Value{n}
	})
	for _, name := range []string{"Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
		"Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"} {
		g.construct(global, name, g.typedArrayArgs)
	}
}

// guarded is the guard's state in one engine.
type guarded struct {
	r    *Runtime
	vm   *goja.Runtime
	gopd goja.Callable // Object.getOwnPropertyDescriptor as the engine began
}

// maxLen is the run's bound on one call's elements; outside a run (a
// promise job cannot outlive one) the default limit's.
func (g *guarded) maxLen() int64 {
	if g.r.run != nil {
		return g.r.run.maxLen
	}
	return DefaultMemoryLimit / bytesPerElement
}

// tooBig throws a RangeError naming what a call was asked to make or walk.
func (g *guarded) tooBig(format string, args ...any) {
	g.throw(fmt.Sprintf("%s: more than one call may make or walk in a run (%d under its %d MiB memory limit)",
		fmt.Sprintf(format, args...), g.maxLen(), g.maxLen()*bytesPerElement>>20))
}

func (g *guarded) throw(msg string) {
	obj, err := g.vm.New(g.vm.Get("RangeError"), g.vm.ToValue(msg))
	if err != nil {
		panic(g.vm.NewTypeError(msg))
	}
	panic(obj)
}

// wrap replaces o[name] with a function that checks (and may coerce) the
// call's receiver and arguments, then calls the original.
func (g *guarded) wrap(o *goja.Object, name string, check func(this goja.Value, args []goja.Value) (goja.Value, []goja.Value)) {
	orig, ok := goja.AssertFunction(o.Get(name))
	if !ok {
		return
	}
	_ = o.DefineDataProperty(name, g.vm.ToValue(g.checked(orig, check)), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

func (g *guarded) wrapSym(o *goja.Object, sym *goja.Symbol, check func(this goja.Value, args []goja.Value) (goja.Value, []goja.Value)) {
	orig, ok := goja.AssertFunction(o.GetSymbol(sym))
	if !ok {
		return
	}
	_ = o.DefineDataPropertySymbol(sym, g.vm.ToValue(g.checked(orig, check)), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

func (g *guarded) checked(orig goja.Callable, check func(this goja.Value, args []goja.Value) (goja.Value, []goja.Value)) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		this, args := check(call.This, call.Arguments)
		v, err := orig(this, args...)
		if err != nil {
			panic(err)
		}
		return v
	}
}

// walksArg checks the argument at i as something the call walks.
func (g *guarded) walksArg(i int) func(this goja.Value, args []goja.Value) (goja.Value, []goja.Value) {
	return func(this goja.Value, args []goja.Value) (goja.Value, []goja.Value) {
		if i < len(args) {
			g.walkable(args[i])
		}
		return this, args
	}
}

// construct replaces the constructor global[name] with one that checks
// the arguments and constructs the original: the same prototype (so
// instanceof and what builtins make inside still agree), the same statics,
// and the prototype's constructor pointing at it, else the original would
// be one property away.
func (g *guarded) construct(global *goja.Object, name string, check func(args []goja.Value) []goja.Value) {
	orig, ok := global.Get(name).(*goja.Object)
	if !ok {
		return
	}
	ctor, ok := goja.AssertConstructor(orig)
	if !ok {
		return
	}
	proto, ok := orig.Get("prototype").(*goja.Object)
	if !ok {
		return
	}
	w := g.vm.ToValue(func(call goja.ConstructorCall) *goja.Object {
		o, err := ctor(call.NewTarget, check(call.Arguments)...)
		if err != nil {
			panic(err)
		}
		return o
	}).(*goja.Object)
	_ = w.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = w.DefineDataProperty("name", orig.Get("name"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = w.DefineDataProperty("length", orig.Get("length"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = w.SetPrototype(orig.Prototype())
	for _, k := range orig.GetOwnPropertyNames() {
		switch k {
		case "prototype", "name", "length":
			continue
		}
		_ = w.DefineDataProperty(k, orig.Get(k), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	if species := orig.GetSymbol(goja.SymSpecies); species != nil && orig.Prototype() != nil && orig.Prototype().GetSymbol(goja.SymSpecies) == nil {
		// ArrayBuffer's own species getter returns this: the wrapper.
		getter := g.vm.ToValue(func(call goja.FunctionCall) goja.Value { return call.This })
		_ = w.DefineAccessorPropertySymbol(goja.SymSpecies, getter, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	_ = global.DefineDataProperty(name, w, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("constructor", w, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// typedArrayArgs checks new T(length), new T(arrayLike or iterable) and
// new T(buffer, offset, length): each element count within maxLen.
func (g *guarded) typedArrayArgs(args []goja.Value) []goja.Value {
	if len(args) == 0 {
		return args
	}
	o, ok := args[0].(*goja.Object)
	if !ok {
		n := g.number(args, 0)
		if n.ToFloat() > float64(g.maxLen()) {
			g.tooBig("a typed array of %.0f elements", n.ToFloat())
		}
		return append([]goja.Value{n}, args[1:]...)
	}
	if o.ExportType() == arrayBufferType || isTypedArray(o) {
		return args // a view of a buffer, or a copy of an array: bounded when it was made
	}
	g.walkable(o)
	return args
}

// walkable refuses v when a builtin walking it would go past maxLen
// elements, or when only script code can say how far it would go.
func (g *guarded) walkable(v goja.Value) {
	switch v := v.(type) {
	case *goja.Object:
		n, ok := g.lengthOf(v)
		if !ok {
			g.throw("an array-like whose length a getter or a proxy computes cannot be walked by a builtin in a run: give it a plain length")
		}
		if n > float64(g.maxLen()) {
			g.tooBig("an array of %.0f elements", n)
		}
	default:
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
			return
		}
		if s, ok := v.(goja.String); ok && int64(s.Length()) > g.maxLen() {
			g.tooBig("a string of %d characters", s.Length())
		}
	}
}

// lengthOf is o's length as reading it would find it, if reading it runs
// no script code: an array's, a typed array's (bounded when it was made),
// or a data property on o or its prototypes, none a proxy.
func (g *guarded) lengthOf(o *goja.Object) (float64, bool) {
	for p := o; p != nil; p = p.Prototype() {
		if p.ExportType() == proxyType {
			return 0, false
		}
		if p.ClassName() == "Array" {
			return p.Get("length").ToFloat(), true // a data property no script can make an accessor
		}
		if isTypedArray(p) {
			return 0, true
		}
		d, err := g.gopd(goja.Undefined(), p, g.vm.ToValue("length"))
		if err != nil {
			return 0, false
		}
		desc, ok := d.(*goja.Object)
		if !ok {
			continue // not here: look up the chain
		}
		if get := desc.Get("get"); get != nil && !goja.IsUndefined(get) {
			return 0, false
		}
		if set := desc.Get("set"); set != nil && !goja.IsUndefined(set) {
			return 0, false
		}
		switch v := desc.Get("value").(type) {
		case *goja.Object:
			return 0, false // its valueOf would run
		case nil:
			return 0, true
		default:
			return v.ToFloat(), true
		}
	}
	return 0, true
}

var (
	proxyType       = reflect.TypeOf(goja.Proxy{})
	arrayBufferType = reflect.TypeOf(goja.ArrayBuffer{})
)

// isTypedArray tells a typed array by what it exports: a slice of numbers.
func isTypedArray(o *goja.Object) bool {
	t := o.ExportType()
	return o.ClassName() == "Object" && t != nil && t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Interface
}

// str is v as a string, converted once.
func (g *guarded) str(v goja.Value) goja.Value {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		panic(g.vm.NewTypeError("String.prototype method called on null or undefined"))
	}
	return v.ToString()
}

// number is args[i] as a number, converted once; undefined stays so.
func (g *guarded) number(args []goja.Value, i int) goja.Value {
	if i >= len(args) || goja.IsUndefined(args[i]) {
		return goja.Undefined()
	}
	return g.vm.ToValue(args[i].ToNumber())
}

// length is a string's length in UTF-16 units.
func (g *guarded) length(s goja.Value) int64 {
	if str, ok := s.(goja.String); ok {
		return int64(str.Length())
	}
	return int64(len(s.String()))
}
