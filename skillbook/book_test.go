package skillbook

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"sync"
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
	// The other skill's save is not one of this skill's revisions.
	if _, err := b.Get(ctx, "new-customer", 3); !errors.Is(err, ErrNotFound) {
		t.Errorf("a revision past the newest: %v; want ErrNotFound", err)
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
	good, _ := s.seal("k", 3, []byte("version: 1\n"))
	f.Add(good)
	f.Add(sealV1(f, s, "k", []byte("version: 1\n")))
	f.Add([]byte("RSK1"))
	f.Add([]byte("RSK2"))
	f.Add([]byte("version: 1\n"))
	f.Fuzz(func(t *testing.T, value []byte) {
		_, doc, err := s.open("k", value)
		if err == nil && (bytes.HasPrefix(value, sealedMagic) || bytes.HasPrefix(value, sealedMagicV1)) && len(doc) > len(value) {
			t.Fatalf("opened %d bytes from %d", len(doc), len(value))
		}
	})
}

// sealV1 seals doc as skills were sealed before their versions were
// numbered (RSK1: no number in the sealed text).
func sealV1(tb testing.TB, s *sealer, kvKey string, doc []byte) []byte {
	tb.Helper()
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		tb.Fatal(err)
	}
	return s.aead.Seal(append(append([]byte{}, sealedMagicV1...), nonce...), nonce, doc, additionalData(kvKey))
}

// TestRevisionsCountPerSkill: each skill's versions are numbered from 1
// by its own saves, whatever other skills save between them (issue 35:
// new skills started at 2, 3 or 4); versions saved before numbering keep
// their place; saves at once never share a number.
func TestRevisionsCountPerSkill(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	b, err := Open(ctx, js, testKey)
	if err != nil {
		t.Fatal(err)
	}
	save := func(id, doc string) uint64 {
		t.Helper()
		rev, err := b.Save(ctx, id, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		return rev
	}
	got := []uint64{save("a", "a1"), save("b", "b1"), save("a", "a2"), save("c", "c1"), save("a", "a3")}
	if want := []uint64{1, 1, 2, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("revisions saved = %v; want %v", got, want)
	}
	for rev, want := range map[uint64]string{0: "a3", 1: "a1", 2: "a2", 3: "a3"} {
		if e, err := b.Get(ctx, "a", rev); err != nil || string(e.Doc) != want || e.Revision != cmp.Or(rev, 3) {
			t.Errorf("Get(a, %d) = %q revision %d, %v; want %q", rev, e.Doc, e.Revision, err, want)
		}
	}
	if _, err := b.Get(ctx, "a", 4); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(a, 4) = %v; want ErrNotFound", err)
	}
	if h, err := b.History(ctx, "a"); err != nil || len(h) != 3 || h[0].Revision != 1 || h[2].Revision != 3 {
		t.Errorf("History(a) = %+v, %v", h, err)
	}

	// Versions written before they were numbered: one in the clear, one
	// sealed without a number. They are 1 and 2, and the next save is 3.
	kv, err := js.KeyValue(ctx, events.BucketSkills)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, "old", []byte("old1")); err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, "old", sealV1(t, b.seal, "old", []byte("old2"))); err != nil {
		t.Fatal(err)
	}
	if e, err := b.Get(ctx, "old", 0); err != nil || string(e.Doc) != "old2" || e.Revision != 2 {
		t.Errorf("Get(old) = %q revision %d, %v; want old2 at 2", e.Doc, e.Revision, err)
	}
	if rev := save("old", "old3"); rev != 3 {
		t.Errorf("a save after two unnumbered versions = revision %d; want 3", rev)
	}
	if e, err := b.Get(ctx, "old", 1); err != nil || string(e.Doc) != "old1" {
		t.Errorf("Get(old, 1) = %q, %v", e.Doc, err)
	}

	// Eight saves at once take eight numbers.
	var wg sync.WaitGroup
	revs := make([]uint64, 8)
	for i := range revs {
		wg.Go(func() {
			rev, err := b.Save(ctx, "busy", []byte(fmt.Sprint("busy", i)))
			if err != nil {
				t.Error(err)
			}
			revs[i] = rev
		})
	}
	wg.Wait()
	slices.Sort(revs)
	if want := []uint64{1, 2, 3, 4, 5, 6, 7, 8}; !slices.Equal(revs, want) {
		t.Errorf("revisions of eight saves at once = %v; want %v", revs, want)
	}
}
