package auth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"time"

	"app/backend/mcp"
)

// The bridge token (issue 13): a short-lived token the running app writes into its handshake
// file (0600) for app-mcp, the stdio bridge, so that a stdio client configured without a
// token of its own still reaches the endpoint. It is never stored: it lives in this
// process's memory, is drawn anew every BridgeRotate, and each one stops working
// BridgeLifetime after it was drawn, so a copy that leaked from the file soon expires. It
// grants readOnly, the rights of the anonymous loopback principal; a client that needs more
// is given a token of its own (APP_MCP_TOKEN in its config, written by `app client config`).

// Bridge token timing: drawn every BridgeRotate, valid for BridgeLifetime, so the token in
// the handshake file always has at least BridgeLifetime-BridgeRotate left.
const (
	BridgeLifetime = 30 * time.Minute
	BridgeRotate   = 10 * time.Minute
)

// BridgePrincipalID is the principal of requests made with a bridge token.
const BridgePrincipalID = "bridge"

type bridgeSecret struct {
	secret  string
	drawn   time.Time
	expires time.Time
}

type bridgeTokens struct {
	mu   sync.Mutex
	live []bridgeSecret // newest last; expired ones dropped when a new one is drawn
	// instances are the bridge processes seen lately (last request), each its own principal,
	// at most maxBridgeInstances: the header is the bridge's own word (any holder of the
	// readOnly bridge token, a process of the same user, could name any number), so past the
	// cap a new one is refused for a while rather than get a fresh rate limit. It never
	// shares another's principal (issue 44: that would share its approvals).
	instances map[string]time.Time
}

// maxBridgeInstances bounds the distinct bridge principals one app serves at once; one idle
// for bridgeIdle is forgotten (an AI client restarted starts a new app-mcp).
const (
	maxBridgeInstances = 64
	bridgeIdle         = 10 * time.Minute
)

// errTooManyBridges is the refusal of a new bridge process past the cap.
var errTooManyBridges = errors.New("too many app-mcp processes at once")

// BridgeToken returns the bridge token to publish now and when it expires, drawing a new one
// when the newest is BridgeRotate old. Earlier ones keep working until they expire.
func (s *Service) BridgeToken() (string, time.Time, error) {
	now := s.clock.Now()
	b := &s.bridge
	b.mu.Lock()
	defer b.mu.Unlock()
	if n := len(b.live); n > 0 && now.Sub(b.live[n-1].drawn) < BridgeRotate {
		return b.live[n-1].secret, b.live[n-1].expires, nil
	}
	secret, err := newSecret()
	if err != nil {
		return "", time.Time{}, err
	}
	keep := b.live[:0]
	for _, t := range b.live {
		if now.Before(t.expires) {
			keep = append(keep, t)
		}
	}
	b.live = append(keep, bridgeSecret{secret: secret, drawn: now, expires: now.Add(BridgeLifetime)})
	return secret, now.Add(BridgeLifetime), nil
}

// matchBridge tells whether secret is a bridge token this process drew: found, and whether
// it has expired.
func (s *Service) matchBridge(secret string, now time.Time) (found, expired bool) {
	b := &s.bridge
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range b.live {
		if subtle.ConstantTimeCompare([]byte(t.secret), []byte(secret)) == 1 {
			return true, !now.Before(t.expires)
		}
	}
	return false, false
}

// bridgeInstance admits a bridge process's instance while fewer than maxBridgeInstances were
// seen within bridgeIdle: "" (the shared principal of an older app-mcp) when the header is no
// instance, errTooManyBridges past the cap.
func (s *Service) bridgeInstance(instance string, now time.Time) (string, error) {
	if !validInstance(instance) {
		return "", nil
	}
	b := &s.bridge
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.instances[instance]; ok {
		b.instances[instance] = now
		return instance, nil
	}
	if len(b.instances) >= maxBridgeInstances {
		for id, seen := range b.instances {
			if now.Sub(seen) >= bridgeIdle {
				delete(b.instances, id)
			}
		}
	}
	if len(b.instances) >= maxBridgeInstances {
		return "", errTooManyBridges
	}
	if b.instances == nil {
		b.instances = map[string]time.Time{}
	}
	b.instances[instance] = now
	return instance, nil
}

// bridgePrincipal is who a bridge token's requests act for: one principal per app-mcp
// process (the instance header), so that stdio clients share no rate limit, remembered
// approval, requestState or request ids (issue 25, item 6). The header is "<pid>/<secret>": the
// secret, 32 random hex digits the process drew, is what makes the principal its own (issue
// 44), since any process holding the handshake file's bridge token could send another's pid;
// the principal's id carries a digest of it, never the secret. An older app-mcp sends the pid
// alone: that is "bridge:<pid>", which such a process shares with whoever claims its pid.
// Without the header, or with one that is neither, it is the one shared "bridge".
func bridgePrincipal(instance string) mcp.Principal {
	p := mcp.Principal{ID: BridgePrincipalID, Scopes: Scopes(LevelReadOnly), Name: "app-mcp bridge token", Level: LevelReadOnly}
	if !validInstance(instance) {
		return p
	}
	pid, secret, _ := strings.Cut(instance, "/")
	p.ID = BridgePrincipalID + ":" + pid
	if secret != "" {
		sum := sha256.Sum256([]byte(secret))
		p.ID += ":" + hex.EncodeToString(sum[:8])
	}
	p.Name = "app-mcp bridge token (process " + pid + ")"
	return p
}

// validInstance: a process id of 1 to 10 digits, alone or followed by "/" and 32 hex digits.
func validInstance(s string) bool {
	pid, secret, withSecret := strings.Cut(s, "/")
	if len(pid) == 0 || len(pid) > 10 || withSecret && (len(secret) != 32 || !isHex(secret)) {
		return false
	}
	for _, r := range pid {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// MatchBridge tells whether secret is a live bridge token of this service (for tests and
// diagnostics outside the package): found, and whether it has expired.
func (s *Service) MatchBridge(secret string) (found, expired bool) {
	return s.matchBridge(secret, s.clock.Now())
}
