package auth

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"app/backend/config"
	"app/backend/mcp"
)

// Issue 13: the bridge token the app publishes in its handshake file for app-mcp is accepted
// as a readOnly principal, rotated every BridgeRotate (the previous one keeps working until
// its own expiry) and refused once BridgeLifetime has passed (401 -33008, like any expired
// token); it is never written anywhere by the service.
func TestBridgeToken(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, exp, err := r.svc.BridgeToken()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("it is a token of the app's shape that expires BridgeLifetime from now", func(t *testing.T) {
		if !wellFormed(first) || !exp.Equal(r.clock.Now().Add(BridgeLifetime)) {
			t.Fatalf("%q expires %v", first, exp)
		}
	})
	t.Run("it acts as the readOnly bridge principal", func(t *testing.T) {
		who := r.whoami(first)
		if who["id"] != BridgePrincipalID || who["level"] != LevelReadOnly {
			t.Fatalf("%v", who)
		}
	})
	t.Run("each app-mcp process is a principal of its own, named by its process id (issue 25, item 6)", func(t *testing.T) {
		as := func(instance string) mcp.Principal {
			t.Helper()
			req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", nil)
			req.Header.Set("Authorization", "Bearer "+first)
			if instance != "" {
				req.Header.Set(config.BridgeInstanceHeader, instance)
			}
			p, err := r.svc.Authenticate(req)
			if err != nil {
				t.Fatal(err)
			}
			if p.Release != nil {
				p.Release() // the request is over: its in-flight slot is free again
			}
			return p
		}
		a, b := as("4242"), as("4343")
		if a.ID != "bridge:4242" || b.ID != "bridge:4343" || a.Level != LevelReadOnly || b.Level != LevelReadOnly {
			t.Fatalf("two bridge processes: %+v and %+v", a, b)
		}
		// Issue 44: a bridge sends its pid with a secret it drew; another process that claims
		// the pid without the secret (or with another) is another principal.
		const secret = "0123456789abcdef0123456789abcdef"
		own, samePid, otherSecret := as("4444/"+secret), as("4444"), as("4444/"+strings.Repeat("f", 32))
		if own.ID == samePid.ID || own.ID == otherSecret.ID || !strings.HasPrefix(own.ID, "bridge:4444:") || strings.Contains(own.ID, secret) {
			t.Fatalf("the same pid: with its secret %+v, without %+v, with another %+v", own, samePid, otherSecret)
		}
		if again := as("4444/" + secret); again.ID != own.ID {
			t.Fatalf("the same process is not the same principal: %+v %+v", own, again)
		}
		// An older app-mcp sends no header; a header that is no process id names nobody.
		if none, junk := as(""), as("4242, bridge:1"); none.ID != BridgePrincipalID || junk.ID != BridgePrincipalID {
			t.Fatalf("without a process id: %+v and %+v", none, junk)
		}
		// The header is the bridge's own word: past maxBridgeInstances seen lately, a new one is
		// refused (no fresh rate limit per invented id) and never shares another's principal
		// (issue 44: its approvals); known ones keep theirs; one idle for bridgeIdle is forgotten.
		for i := 0; len(r.svc.bridge.instances) < maxBridgeInstances; i++ {
			as(strconv.Itoa(100000 + i))
		}
		late, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", nil)
		late.Header.Set("Authorization", "Bearer "+first)
		late.Header.Set(config.BridgeInstanceHeader, "999999")
		if p, err := r.svc.Authenticate(late); err == nil {
			t.Fatalf("past the cap: admitted as %+v", p)
		}
		if known := as("4242"); known.ID != "bridge:4242" {
			t.Fatalf("a known one: %+v", known)
		}
		r.svc.bridge.mu.Lock()
		for id := range r.svc.bridge.instances {
			r.svc.bridge.instances[id] = r.clock.Now().Add(-bridgeIdle)
		}
		r.svc.bridge.mu.Unlock()
		if again := as("999999"); again.ID != "bridge:999999" {
			t.Fatalf("after the others were idle: %+v", again)
		}
	})
	t.Run("the same token is published until BridgeRotate has passed, then a new one", func(t *testing.T) {
		if again, _, _ := r.svc.BridgeToken(); again != first {
			t.Fatal("rotated too early")
		}
		r.clock.Advance(BridgeRotate)
		second, _, _ := r.svc.BridgeToken()
		if second == first {
			t.Fatal("not rotated")
		}
		if who := r.whoami(first); who["id"] != BridgePrincipalID {
			t.Fatal("the previous token stopped working before its expiry")
		}
		if who := r.whoami(second); who["id"] != BridgePrincipalID {
			t.Fatal("the new token does not work")
		}
	})
	t.Run("an expired bridge token is 401 -33008", func(t *testing.T) {
		r.clock.Advance(BridgeLifetime - BridgeRotate)
		rep := r.tool(first, "whoami")
		if rep.Status != http.StatusUnauthorized || rep.code() != mcp.CodeTokenExpired {
			t.Fatalf("%d %+v", rep.Status, rep.Error)
		}
	})
	t.Run("a stranger's guess is 401 -33009", func(t *testing.T) {
		rep := r.tool(first[:len(first)-2]+"xx", "whoami")
		if rep.Status != http.StatusUnauthorized || rep.code() != mcp.CodeUnauthenticated {
			t.Fatalf("%d %+v", rep.Status, rep.Error)
		}
	})
}
