package auth

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Issue 11: tokens are 32 random bytes, base64url, with a recognisable prefix; only a salted
// hash is stored; tokens are compared in constant time.
func TestTokenFormat(t *testing.T) {
	a, err := newSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newSecret()
	t.Run("a token is app_ then base64url of 32 random bytes", func(t *testing.T) {
		raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(a, TokenPrefix))
		if !strings.HasPrefix(a, "app_") || err != nil || len(raw) != 32 || len(a) != 47 || !wellFormed(a) {
			t.Fatalf("%q: %v", a, err)
		}
	})
	t.Run("two tokens differ", func(t *testing.T) {
		if a == b {
			t.Fatal("same token twice")
		}
	})
	t.Run("a string of another shape is not a token", func(t *testing.T) {
		for _, s := range []string{"", "app_", "abc_" + a[4:], a + "x", a[:46]} {
			if wellFormed(s) {
				t.Errorf("%q accepted", s)
			}
		}
	})
	t.Run("the lockout counts a token under its first 12 characters", func(t *testing.T) {
		if lockoutKey(a) != a[:12] || lockoutKey("short") != "short" {
			t.Fatal(lockoutKey(a))
		}
	})
}

func TestTokenDigest(t *testing.T) {
	secret, _ := newSecret()
	d1, err := newDigest(secret)
	if err != nil {
		t.Fatal(err)
	}
	d2, _ := newDigest(secret)
	t.Run("the stored hash is salted: one token, two salts, two hashes", func(t *testing.T) {
		if string(d1.salt) == string(d2.salt) || d1.sum == d2.sum {
			t.Fatal("salt or hash repeated")
		}
	})
	t.Run("the token matches its hash", func(t *testing.T) {
		if !d1.matches(secret) || !d2.matches(secret) {
			t.Fatal("no match")
		}
	})
	t.Run("a wrong token of the same length and prefix does not match (constant-time compare of the hashes)", func(t *testing.T) {
		other, _ := newSecret()
		for _, wrong := range []string{other, flipLast(secret)} {
			if len(wrong) != len(secret) || wrong == secret {
				t.Fatalf("bad fixture %q", wrong)
			}
			if d1.matches(wrong) {
				t.Fatalf("%q matched", wrong)
			}
		}
	})
	t.Run("the keyring record round-trips and never holds the token", func(t *testing.T) {
		enc := d1.encode()
		back, err := parseDigest(enc)
		if err != nil || !back.matches(secret) || strings.Contains(enc, secret) || strings.Contains(enc, secret[len(TokenPrefix):]) {
			t.Fatalf("%q: %v", enc, err)
		}
	})
	t.Run("a record that is not a token hash is refused", func(t *testing.T) {
		for _, s := range []string{"", "sha256-salted:x", "md5:AAAA:AAAA", "sha256-salted:AAAA:AAAA"} {
			if _, err := parseDigest(s); err == nil {
				t.Errorf("%q accepted", s)
			}
		}
	})
}

// flipLast is s with its last character replaced by another base64url character.
func flipLast(s string) string {
	if s[len(s)-1] == 'A' {
		return s[:len(s)-1] + "B"
	}
	return s[:len(s)-1] + "A"
}
