package atspi

import (
	"context"
	"fmt"

	"github.com/godbus/dbus/v5"
)

// AT-SPI interfaces and the registry's root, where every application hangs.
const (
	ifaceAccessible   = "org.a11y.atspi.Accessible"
	ifaceComponent    = "org.a11y.atspi.Component"
	ifaceText         = "org.a11y.atspi.Text"
	ifaceEditableText = "org.a11y.atspi.EditableText"
	ifaceAction       = "org.a11y.atspi.Action"
	registryBus       = "org.a11y.atspi.Registry"
	rootPath          = dbus.ObjectPath("/org/a11y/atspi/accessible/root")
	nullPath          = dbus.ObjectPath("/org/a11y/atspi/null")
	coordScreen       = uint32(0)
	relationLabelled  = uint32(2) // ATSPI_RELATION_LABELLED_BY
)

// AT-SPI states (AtspiStateType), bits of GetState's two words.
const (
	stateActive  = 1
	stateFocused = 12
	stateShowing = 25
	stateVisible = 30
)

// ref names one accessible object: the application's unique bus name and
// the object's path. It is what GetChildren and GetAccessibleAtPoint return,
// hence the D-Bus (so) layout.
type ref struct {
	Bus  string
	Path dbus.ObjectPath
}

func (r ref) null() bool { return r.Bus == "" || r.Path == "" || r.Path == nullPath }

// client makes AT-SPI calls on one connection to the accessibility bus.
type client struct{ conn *dbus.Conn }

func (c client) call(ctx context.Context, r ref, method string, out []any, args ...any) error {
	call := c.conn.Object(r.Bus, r.Path).CallWithContext(ctx, method, 0, args...)
	if call.Err != nil {
		return fmt.Errorf("%s on %s%s: %w", method, r.Bus, r.Path, call.Err)
	}
	if len(out) == 0 {
		return nil
	}
	if err := call.Store(out...); err != nil {
		return fmt.Errorf("%s on %s%s: %w", method, r.Bus, r.Path, err)
	}
	return nil
}

// req is one call of a batch.
type req struct {
	r      ref
	method string
	args   []any
	out    []any
	err    error
}

// batch sends all calls before waiting for any, so a lookup costs one round
// trip per tree level rather than one per element; each req gets its own
// error.
func (c client) batch(ctx context.Context, reqs []req) {
	calls := make([]*dbus.Call, len(reqs))
	for i, q := range reqs {
		calls[i] = c.conn.Object(q.r.Bus, q.r.Path).GoWithContext(ctx, q.method, 0, nil, q.args...)
	}
	for i, call := range calls {
		q := &reqs[i]
		select {
		case <-call.Done:
		case <-ctx.Done():
			q.err = ctx.Err()
			continue
		}
		if call.Err == nil {
			call.Err = call.Store(q.out...)
		}
		if call.Err != nil {
			q.err = fmt.Errorf("%s on %s%s: %w", q.method, q.r.Bus, q.r.Path, call.Err)
		}
	}
}

// roleNames returns the role name of each of rs, "" where it failed.
func (c client) roleNames(ctx context.Context, rs []ref) []string {
	out := make([]string, len(rs))
	reqs := make([]req, len(rs))
	for i, r := range rs {
		reqs[i] = req{r: r, method: ifaceAccessible + ".GetRoleName", out: []any{&out[i]}}
	}
	c.batch(ctx, reqs)
	return out
}

// names returns the Name of each of rs, "" where it failed.
func (c client) names(ctx context.Context, rs []ref) []string {
	vs := make([]dbus.Variant, len(rs))
	reqs := make([]req, len(rs))
	for i, r := range rs {
		reqs[i] = req{r: r, method: "org.freedesktop.DBus.Properties.Get",
			args: []any{ifaceAccessible, "Name"}, out: []any{&vs[i]}}
	}
	c.batch(ctx, reqs)
	out := make([]string, len(rs))
	for i, v := range vs {
		if s, ok := v.Value().(string); ok && reqs[i].err == nil {
			out[i] = s
		}
	}
	return out
}

func (c client) prop(ctx context.Context, r ref, iface, name string, out any) error {
	var v dbus.Variant
	if err := c.call(ctx, r, "org.freedesktop.DBus.Properties.Get", []any{&v}, iface, name); err != nil {
		return err
	}
	return v.Store(out)
}

func (c client) name(ctx context.Context, r ref) (string, error) {
	var s string
	err := c.prop(ctx, r, ifaceAccessible, "Name", &s)
	return s, err
}

func (c client) roleName(ctx context.Context, r ref) (string, error) {
	var s string
	err := c.call(ctx, r, ifaceAccessible+".GetRoleName", []any{&s})
	return s, err
}

func (c client) children(ctx context.Context, r ref) ([]ref, error) {
	var kids []ref
	err := c.call(ctx, r, ifaceAccessible+".GetChildren", []any{&kids})
	return kids, err
}

func (c client) parent(ctx context.Context, r ref) (ref, error) {
	var p ref
	err := c.prop(ctx, r, ifaceAccessible, "Parent", &p)
	return p, err
}

func (c client) states(ctx context.Context, r ref) (uint64, error) {
	var words []uint32
	if err := c.call(ctx, r, ifaceAccessible+".GetState", []any{&words}); err != nil {
		return 0, err
	}
	var s uint64
	for i, w := range words {
		if i < 2 {
			s |= uint64(w) << (32 * i)
		}
	}
	return s, nil
}

func has(states uint64, bit uint) bool { return states&(1<<bit) != 0 }

func (c client) extents(ctx context.Context, r ref) (rect, error) {
	var e struct{ X, Y, W, H int32 } // one (iiii), not four values
	err := c.call(ctx, r, ifaceComponent+".GetExtents", []any{&e}, coordScreen)
	return rect{int(e.X), int(e.Y), int(e.W), int(e.H)}, err
}

func (c client) childAt(ctx context.Context, r ref, x, y int) (ref, error) {
	var kid ref
	err := c.call(ctx, r, ifaceComponent+".GetAccessibleAtPoint", []any{&kid}, int32(x), int32(y), coordScreen)
	return kid, err
}

// relationSet is what GetRelationSet returns: a(ua(so)).
type relationSet []struct {
	Type    uint32
	Targets []ref
}

// labelledBy returns the targets of the LABELLED_BY relations, in order.
func (rs relationSet) labelledBy() []ref {
	var out []ref
	for _, rel := range rs {
		if rel.Type == relationLabelled {
			out = append(out, rel.Targets...)
		}
	}
	return out
}

// labelledBy returns the name of the first target of r's LABELLED_BY
// relation, "" when it has none.
func (c client) labelledBy(ctx context.Context, r ref) (string, error) {
	var rels relationSet
	if err := c.call(ctx, r, ifaceAccessible+".GetRelationSet", []any{&rels}); err != nil {
		return "", err
	}
	for _, t := range rels.labelledBy() {
		if n, err := c.name(ctx, t); err == nil && n != "" {
			return n, nil
		}
	}
	return "", nil
}
