package registry

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
)

// PublicKey is a registry's ed25519 public key.
type PublicKey struct {
	Key ed25519.PublicKey
}

// keyPrefix starts the text form of a public key: "ed25519:<base64 of the 32 key bytes>".
const keyPrefix = "ed25519:"

// privatePrefix starts the line of a private key file that holds the key: the 32-byte
// ed25519 seed in base64.
const privatePrefix = "ed25519-private:"

// ID is the key's short id: the first 8 bytes of the SHA-256 of the key, in hex.
func (k PublicKey) ID() string {
	sum := sha256.Sum256(k.Key)
	return hex.EncodeToString(sum[:8])
}

// String is the key's text form, "ed25519:<base64>", what --registry-key takes.
func (k PublicKey) String() string {
	return keyPrefix + base64.StdEncoding.EncodeToString(k.Key)
}

// ParsePublicKey reads a public key in its text form ("ed25519:<base64>", or the bare
// base64 of the 32 key bytes).
func ParsePublicKey(s string) (PublicKey, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, keyPrefix)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return PublicKey{}, fmt.Errorf("a registry key is %q followed by the base64 of 32 bytes", keyPrefix)
	}
	return PublicKey{Key: ed25519.PublicKey(b)}, nil
}

// GenerateKey makes a new signing key and returns the text of its private key file.
func GenerateKey() (ed25519.PrivateKey, string, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, "", err
	}
	return priv, FormatPrivateKey(priv), nil
}

// FormatPrivateKey is the text of a private key file: two comment lines (what it is, its
// public key) and the seed line.
func FormatPrivateKey(priv ed25519.PrivateKey) string {
	pub := PublicKey{Key: priv.Public().(ed25519.PublicKey)}
	return fmt.Sprintf("# App plugin registry signing key (ed25519). Keep it secret; never commit it.\n# public key %s (id %s)\n%s%s\n",
		pub, pub.ID(), privatePrefix, base64.StdEncoding.EncodeToString(priv.Seed()))
}

// ParsePrivateKey reads a private key file's text (FormatPrivateKey), or the bare base64
// of the 32-byte seed.
func ParsePrivateKey(text string) (ed25519.PrivateKey, error) {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(line, privatePrefix))
		if err != nil || len(b) != ed25519.SeedSize {
			break
		}
		return ed25519.NewKeyFromSeed(b), nil
	}
	return nil, fmt.Errorf("no signing key: expected a line %q followed by the base64 of a 32-byte ed25519 seed", privatePrefix)
}

// Sign signs index bytes and returns the signature file's text: the base64 of the 64-byte
// ed25519 signature over exactly raw, and a newline.
func Sign(priv ed25519.PrivateKey, raw []byte) []byte {
	return []byte(base64.StdEncoding.EncodeToString(ed25519.Sign(priv, raw)) + "\n")
}
