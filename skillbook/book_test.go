package skillbook

import (
	"context"
	"errors"
	"testing"

	"github.com/reprise-dev/reprise/internal/natstest"
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
	b, err := Open(ctx, js)
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
