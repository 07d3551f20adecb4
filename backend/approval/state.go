package approval

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"app/backend/secrets"
)

// The requestState of an input_required round (SPEC.md B "States and transitions"): an
// opaque string the client hands back on its follow-up call, signed with a key kept in the
// keyring and bound to the principal, the tool, a digest of the arguments and an expiry of
// StateLifetime. It is good for one follow-up: a replay after use is refused like a
// tampered one.
//
//	state   = base64url(payload JSON) "." base64url(HMAC-SHA256(key, payload JSON))
//	payload = {"p": principal id, "t": tool, "d": base64url(sha256(canonical arguments)),
//	           "e": expiry (unix ms), "n": 16 random bytes, base64url,
//	           "i": this run of the app (random at start)}
//
// The used nonces are kept in memory, so a state is also bound to the run of the app that
// issued it: after a restart, a state used before it cannot be replayed.

// StateLifetime is how long a requestState is valid (SPEC.md B "Limits").
const StateLifetime = 5 * time.Minute

// stateKeyRef is the keyring entry of the signing key.
const stateKeyRef = "mcp/requestStateKey"

type statePayload struct {
	Principal string `json:"p"`
	Tool      string `json:"t"`
	Digest    string `json:"d"`
	Expiry    int64  `json:"e"`
	Nonce     string `json:"n"`
	Instance  string `json:"i"`
}

// errBadState is every way a requestState can fail: the caller learns only that it is not
// acceptable (-32602), the log learns why.
var errBadState = errors.New("approval: requestState is not valid")

// signer issues and checks requestStates.
type signer struct {
	keys secrets.Keyring
	now  func() time.Time

	// instance names this run of the app.
	instance string

	mu   sync.Mutex
	key  []byte
	used map[string]time.Time // nonce -> expiry of states already followed up
}

func newSigner(keys secrets.Keyring, now func() time.Time) *signer {
	inst := make([]byte, 12)
	_, _ = rand.Read(inst)
	return &signer{keys: keys, now: now, used: map[string]time.Time{}, instance: base64.RawURLEncoding.EncodeToString(inst)}
}

// signingKey reads the key from the keyring, making it on first use.
func (s *signer) signingKey() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.key != nil {
		return s.key, nil
	}
	if s.keys == nil {
		return nil, errors.New("approval: no keyring for the requestState key")
	}
	v, err := s.keys.Get(stateKeyRef)
	if err == nil {
		k, derr := base64.RawURLEncoding.DecodeString(v)
		if derr == nil && len(k) == 32 {
			s.key = k
			return k, nil
		}
	} else if !errors.Is(err, secrets.ErrNotFound) {
		return nil, fmt.Errorf("approval: read the requestState key: %w", err)
	}
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("approval: make the requestState key: %w", err)
	}
	if err := s.keys.Set(stateKeyRef, base64.RawURLEncoding.EncodeToString(k)); err != nil {
		return nil, fmt.Errorf("approval: store the requestState key: %w", err)
	}
	s.key = k
	return k, nil
}

// Digest is the digest of a tool's arguments bound into a requestState: SHA-256 of their
// canonical JSON (object members sorted, insignificant space dropped), so a client that
// re-encodes the same arguments differently is not refused, and any changed value is.
func Digest(args json.RawMessage) (string, error) {
	var v any
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if err := json.Unmarshal(args, &v); err != nil {
		return "", fmt.Errorf("approval: arguments are not JSON: %w", err)
	}
	canon, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// issue signs a new state for principal, tool and args.
func (s *signer) issue(principal, tool string, args json.RawMessage) (string, error) {
	key, err := s.signingKey()
	if err != nil {
		return "", err
	}
	d, err := Digest(args)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	p, err := json.Marshal(statePayload{
		Principal: principal, Tool: tool, Digest: d,
		Expiry:   s.now().Add(StateLifetime).UnixMilli(),
		Nonce:    base64.RawURLEncoding.EncodeToString(nonce),
		Instance: s.instance,
	})
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(p) + "." + base64.RawURLEncoding.EncodeToString(mac(key, p)), nil
}

func mac(key, payload []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(payload)
	return h.Sum(nil)
}

// redeem checks a state against the follow-up call and marks it used. Every failure wraps
// errBadState with the reason for the log.
func (s *signer) redeem(state, principal, tool string, args json.RawMessage) error {
	key, err := s.signingKey()
	if err != nil {
		return err
	}
	enc, sig, ok := strings.Cut(state, ".")
	if !ok {
		return fmt.Errorf("%w: malformed", errBadState)
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(enc)
	got, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("%w: malformed", errBadState)
	}
	if !hmac.Equal(got, mac(key, payload)) {
		return fmt.Errorf("%w: signature does not match (tampered, or issued by another install)", errBadState)
	}
	var p statePayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return fmt.Errorf("%w: payload: %v", errBadState, err)
	}
	now := s.now()
	switch {
	case p.Principal != principal:
		return fmt.Errorf("%w: issued to another principal", errBadState)
	case p.Tool != tool:
		return fmt.Errorf("%w: issued for tool %q", errBadState, p.Tool)
	case p.Instance != s.instance:
		return fmt.Errorf("%w: issued before the app restarted", errBadState)
	case now.UnixMilli() >= p.Expiry:
		return fmt.Errorf("%w: expired", errBadState)
	}
	d, err := Digest(args)
	if err != nil || !hmac.Equal([]byte(d), []byte(p.Digest)) {
		return fmt.Errorf("%w: the arguments changed since it was issued", errBadState)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for n, exp := range s.used {
		if now.UnixMilli() >= exp.UnixMilli() {
			delete(s.used, n)
		}
	}
	if _, seen := s.used[p.Nonce]; seen {
		return fmt.Errorf("%w: already used", errBadState)
	}
	s.used[p.Nonce] = time.UnixMilli(p.Expiry)
	return nil
}
