package registry

import (
	"crypto/ed25519"
	"strings"
	"testing"
)

func TestKeyTextForms(t *testing.T) {
	priv, text, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	pub := PublicKey{Key: priv.Public().(ed25519.PublicKey)}
	t.Run("a private key file reads back and names its public key", func(t *testing.T) {
		got, err := ParsePrivateKey(text)
		if err != nil || !got.Equal(priv) {
			t.Fatalf("ParsePrivateKey: %v", err)
		}
		if !strings.Contains(text, pub.String()) || !strings.Contains(text, pub.ID()) {
			t.Fatalf("key file does not name its public key:\n%s", text)
		}
	})
	t.Run("a public key reads back with and without its prefix", func(t *testing.T) {
		for _, s := range []string{pub.String(), strings.TrimPrefix(pub.String(), "ed25519:"), " " + pub.String() + "\n"} {
			got, err := ParsePublicKey(s)
			if err != nil || !got.Key.Equal(pub.Key) {
				t.Fatalf("ParsePublicKey(%q): %v", s, err)
			}
		}
	})
	t.Run("malformed keys are refused with the expected form", func(t *testing.T) {
		for _, s := range []string{"", "ed25519:", "ed25519:AAAA", "not base64!"} {
			if _, err := ParsePublicKey(s); err == nil || !strings.Contains(err.Error(), "ed25519:") {
				t.Fatalf("ParsePublicKey(%q): %v", s, err)
			}
		}
		if _, err := ParsePrivateKey("# only a comment\n"); err == nil {
			t.Fatal("a key file without key was accepted")
		}
	})
	t.Run("the id is 16 hex digits", func(t *testing.T) {
		if id := pub.ID(); len(id) != 16 || !keyIDRE(id) {
			t.Fatalf("id %q", id)
		}
	})
}
