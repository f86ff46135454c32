package skillbook

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/store"
)

func TestID(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"New customer", "new-customer"},
		{"  File the VAT return (EU)  ", "file-the-vat-return-eu"},
		{"Ünïcode—only ✓ 2", "n-code-only-2"},
		{"", ""},
		{"✓✓", ""},
	} {
		got, err := ID(tc.name)
		if (tc.want == "") != (err != nil) || got != tc.want {
			t.Errorf("ID(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestSaveKeepsHistory(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	b, err := Open(ctx, js, testKey)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{"version: 1\nname: a\n", "version: 1\nname: b\n"} {
		if _, err := b.Save(ctx, "new-customer", []byte(doc)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Save(ctx, "other", []byte("version: 1\nname: other\n")); err != nil {
		t.Fatal(err)
	}
	newest, err := b.Get(ctx, "new-customer", 0)
	if err != nil || string(newest.Doc) != "version: 1\nname: b\n" {
		t.Fatalf("newest = %q, %v", newest.Doc, err)
	}
	h, err := b.History(ctx, "new-customer")
	if err != nil || len(h) != 2 || string(h[0].Doc) != "version: 1\nname: a\n" {
		t.Fatalf("history = %+v, %v", h, err)
	}
	first, err := b.Get(ctx, "new-customer", h[0].Revision)
	if err != nil || string(first.Doc) != "version: 1\nname: a\n" {
		t.Fatalf("first version = %q, %v", first.Doc, err)
	}
	// A revision of another skill is not this skill's.
	other, _ := b.Get(ctx, "other", 0)
	if _, err := b.Get(ctx, "new-customer", other.Revision); !errors.Is(err, ErrNotFound) {
		t.Errorf("another skill's revision: %v; want ErrNotFound", err)
	}
	l, err := b.List(ctx)
	if err != nil || len(l) != 2 || l[0].ID != "new-customer" || l[1].ID != "other" {
		t.Fatalf("list = %+v, %v", l, err)
	}
	for _, bad := range []string{"", "../x", "UPPER", "a b"} {
		if _, err := b.Get(ctx, bad, 0); !errors.Is(err, ErrNotFound) {
			t.Errorf("Get(%q): %v; want ErrNotFound", bad, err)
		}
		if _, err := b.Save(ctx, bad, []byte("x")); err == nil {
			t.Errorf("Save(%q) accepted", bad)
		}
	}
}

var testKey = make([]byte, store.DataKeySize)

// TestSkillsAreSealedAtRest: what the bucket holds is neither the skill's
// text nor usable under another key or another skill's name (issue 32: the
// skill book was stored in the clear).
func TestSkillsAreSealedAtRest(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	b, err := Open(ctx, js, testKey)
	if err != nil {
		t.Fatal(err)
	}
	doc := "version: 1\nname: payroll\nsteps:\n- action: navigate\n  url: https://intranet.example.test/payroll\n"
	if _, err := b.Save(ctx, "payroll", []byte(doc)); err != nil {
		t.Fatal(err)
	}
	if err := b.Propose(ctx, "payroll", 1, []byte(doc)); err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, events.BucketSkills)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"payroll", "payroll" + pendingSuffix} {
		e, err := kv.Get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(e.Value(), []byte("intranet.example.test")) {
			t.Errorf("%s is stored in the clear", key)
		}
	}
	if p, err := b.Pending(ctx, "payroll"); err != nil || string(p.Doc) != doc || p.Base != 1 {
		t.Errorf("Pending = %q base %d, %v", p.Doc, p.Base, err)
	}

	// Another data dir's key, a value moved to another name, a cut value.
	other := bytes.Repeat([]byte{1}, store.DataKeySize)
	ob, err := Open(ctx, js, other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ob.Get(ctx, "payroll", 0); !errors.Is(err, ErrDamaged) {
		t.Errorf("Get under another key = %v; want ErrDamaged", err)
	}
	e, _ := kv.Get(ctx, "payroll")
	if _, err := kv.Put(ctx, "moved", e.Value()); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(ctx, "moved", 0); !errors.Is(err, ErrDamaged) {
		t.Errorf("Get of a value moved to another name = %v; want ErrDamaged", err)
	}
	if _, err := kv.Put(ctx, "cut", e.Value()[:10]); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(ctx, "cut", 0); !errors.Is(err, ErrDamaged) {
		t.Errorf("Get of a cut value = %v; want ErrDamaged", err)
	}

	// A skill saved before skills were sealed still reads.
	if _, err := kv.Put(ctx, "older", []byte("version: 1\nname: older\n")); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Get(ctx, "older", 0); err != nil || string(got.Doc) != "version: 1\nname: older\n" {
		t.Errorf("Get of an unsealed older skill = %q, %v", got.Doc, err)
	}
}

func FuzzOpenSealed(f *testing.F) {
	s, err := newSealer(testKey)
	if err != nil {
		f.Fatal(err)
	}
	good, _ := s.seal("k", []byte("version: 1\n"))
	f.Add(good)
	f.Add([]byte("RSK1"))
	f.Add([]byte("version: 1\n"))
	f.Fuzz(func(t *testing.T, value []byte) {
		doc, err := s.open("k", value)
		if err == nil && bytes.HasPrefix(value, sealedMagic) && len(doc) > len(value) {
			t.Fatalf("opened %d bytes from %d", len(doc), len(value))
		}
	})
}
