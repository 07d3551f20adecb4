package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// TokenPrefix starts every token, so a leaked one is recognisable (secret scanners, logs).
const TokenPrefix = "app_"

// tokenBytes is the randomness of a token: 32 bytes, 256 bits.
const tokenBytes = 32

// saltBytes is the per-token random salt of the stored hash.
const saltBytes = 16

// lockoutPrefixLen is how much of a presented token names it for the failed-attempt lockout:
// the prefix plus 8 characters (48 bits) of the random part.
const lockoutPrefixLen = 12

// b64 is base64url without padding, the token's alphabet.
var b64 = base64.RawURLEncoding

// newSecret draws a new token: TokenPrefix + base64url(32 random bytes), 47 characters.
func newSecret() (string, error) {
	var b [tokenBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("token: no randomness: %w", err)
	}
	return TokenPrefix + b64.EncodeToString(b[:]), nil
}

// wellFormed reports whether s has the shape of a token. It only saves hashing garbage; the
// comparison with the stored hashes decides.
func wellFormed(s string) bool {
	return len(s) == len(TokenPrefix)+b64.EncodedLen(tokenBytes) && strings.HasPrefix(s, TokenPrefix)
}

// lockoutKey is the part of a presented credential the lockout counts failures under.
func lockoutKey(presented string) string {
	if len(presented) > lockoutPrefixLen {
		return presented[:lockoutPrefixLen]
	}
	return presented
}

// digest is what the keyring holds for a token: a random salt and SHA-256(salt || token).
// A 256-bit random token needs no slow hash: nobody can guess it, so a fast salted hash is
// enough to keep the keyring entry from being usable as the token itself.
type digest struct {
	salt []byte
	sum  [sha256.Size]byte
}

func newDigest(secret string) (digest, error) {
	d := digest{salt: make([]byte, saltBytes)}
	if _, err := rand.Read(d.salt); err != nil {
		return digest{}, fmt.Errorf("token: no randomness: %w", err)
	}
	d.sum = hashWith(d.salt, secret)
	return d, nil
}

func hashWith(salt []byte, secret string) [sha256.Size]byte {
	h := sha256.New()
	h.Write(salt)
	h.Write([]byte(secret))
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// matches compares the presented secret with the stored hash in constant time.
func (d digest) matches(presented string) bool {
	got := hashWith(d.salt, presented)
	return subtle.ConstantTimeCompare(got[:], d.sum[:]) == 1
}

// digestScheme versions the keyring record.
const digestScheme = "sha256-salted"

// encode is the keyring value: "sha256-salted:<salt>:<hash>", both base64url.
func (d digest) encode() string {
	return digestScheme + ":" + b64.EncodeToString(d.salt) + ":" + b64.EncodeToString(d.sum[:])
}

var errBadDigest = errors.New("token: the keyring entry is not a token hash")

func parseDigest(s string) (digest, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 || parts[0] != digestScheme {
		return digest{}, errBadDigest
	}
	salt, err1 := b64.DecodeString(parts[1])
	sum, err2 := b64.DecodeString(parts[2])
	if err1 != nil || err2 != nil || len(salt) == 0 || len(sum) != sha256.Size {
		return digest{}, errBadDigest
	}
	d := digest{salt: salt}
	copy(d.sum[:], sum)
	return d, nil
}

// keyringKey names a token's hash in the keyring.
func keyringKey(id string) string { return "mcp-token/" + id }
