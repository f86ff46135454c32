package store

import (
	"errors"
	"fmt"
	"os"
	"testing"
)

func TestSecrets(t *testing.T) {
	needSecretService(t)
	name := fmt.Sprintf("store-test-%d", os.Getpid())
	if _, err := Secret(name); !errors.Is(err, ErrNoSecret) {
		t.Fatalf("Secret(%q) before SetSecret: %v; want ErrNoSecret", name, err)
	}
	if err := SetSecret(name, "correct horse"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = DeleteSecret(name) })
	if v, err := Secret(name); err != nil || v != "correct horse" {
		t.Errorf("Secret(%q) = %q, %v; want the value set", name, v, err)
	}
	if err := DeleteSecret(name); err != nil {
		t.Fatal(err)
	}
	if err := DeleteSecret(name); !errors.Is(err, ErrNoSecret) {
		t.Errorf("DeleteSecret(%q) twice: %v; want ErrNoSecret", name, err)
	}
	if _, err := Secret(name); !errors.Is(err, ErrNoSecret) {
		t.Errorf("Secret(%q) after DeleteSecret: %v; want ErrNoSecret", name, err)
	}
}
