package auth

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"app/backend/config"
	"app/backend/mcp"
)

// SPEC.md B "Authentication" 1 and 4, "Errors": with authentication on, each request carries
// Authorization: Bearer <token>; 401 answers carry the WWW-Authenticate challenge of their
// case; the right token is served as its principal. Real HTTP, real server, real keyring.
func TestAuthenticationAnswers(t *testing.T) {
	r := newRig(t, rigOptions{})
	live, liveSecret := r.create("live", LevelReadWrite, []string{"c1", "c2"}, nil)
	revoked, revokedSecret := r.create("revoked", LevelReadOnly, nil, nil)
	soon := r.clock.Now().Add(time.Hour)
	_, expiredSecret := r.create("expires", LevelReadOnly, nil, &soon)
	unknown, _ := newSecret()
	if _, err := r.svc.Revoke(context.Background(), revoked.Name); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(2 * time.Hour) // "expires" is past its expiry now; the others never expire

	for _, c := range []struct {
		rule      string
		auth      string
		status    int
		code      int
		challenge string
	}{
		{"no Authorization header is 401 -33009 with Bearer realm=\"App\"", "", 401, mcp.CodeUnauthenticated, `Bearer realm="App"`},
		{"a scheme other than Bearer is a missing token", "Basic dXNlcjpwYXNz", 401, mcp.CodeUnauthenticated, `Bearer realm="App"`},
		{"an empty bearer token is a missing token", "Bearer   ", 401, mcp.CodeUnauthenticated, `Bearer realm="App"`},
		{"an unknown token is 401 -33009 with Bearer error=\"invalid_token\"", "Bearer " + unknown, 401, mcp.CodeUnauthenticated, `Bearer error="invalid_token"`},
		{"a wrong token of the same length and prefix is 401 -33009 invalid_token", "Bearer " + flipLast(liveSecret), 401, mcp.CodeUnauthenticated, `Bearer error="invalid_token"`},
		{"a string that is not a token is 401 -33009 invalid_token", "Bearer hunter2", 401, mcp.CodeUnauthenticated, `Bearer error="invalid_token"`},
		{"a revoked token is 401 -33009 invalid_token", "Bearer " + revokedSecret, 401, mcp.CodeUnauthenticated, `Bearer error="invalid_token"`},
		{"an expired token is 401 -33008 with error_description=\"token expired\"", "Bearer " + expiredSecret, 401, mcp.CodeTokenExpired, `Bearer error="invalid_token", error_description="token expired"`},
		{"the right token is served", "Bearer " + liveSecret, 200, 0, ""},
		{"the scheme name is case-insensitive", "bearer " + liveSecret, 200, 0, ""},
	} {
		t.Run(c.rule, func(t *testing.T) {
			rep := r.call(c.auth, "tools/list", nil)
			if rep.Status != c.status || rep.code() != c.code {
				t.Fatalf("got %d %+v, want %d %d", rep.Status, rep.Error, c.status, c.code)
			}
			if got := rep.Header.Get("WWW-Authenticate"); got != c.challenge {
				t.Fatalf("WWW-Authenticate %q, want %q", got, c.challenge)
			}
			if c.status == 401 && string(rep.ID) != "7" {
				t.Fatalf("the 401 does not carry the request's id: %s", rep.ID)
			}
			if c.status == 401 && (strings.Contains(rep.Error.Message, liveSecret) || strings.Contains(rep.Error.Message, "hunter2")) {
				t.Fatalf("the answer echoes the credential: %q", rep.Error.Message)
			}
		})
	}
	t.Run("a token's requests act for its principal: token:<id>, its name, level, the level's scopes and its allowlist", func(t *testing.T) {
		who := r.whoami(liveSecret)
		want := map[string]any{
			"id": "token:" + live.ID, "name": "live", "level": LevelReadWrite, "anonymous": false,
			"scopes":      []any{"tools:read", "resources:read", "tools:write"},
			"connections": []any{"c1", "c2"},
		}
		if !reflect.DeepEqual(who, want) {
			t.Fatalf("principal %v, want %v", who, want)
		}
	})
	t.Run("the principal id never contains the token", func(t *testing.T) {
		if who := r.whoami(liveSecret); strings.Contains(who["id"].(string), liveSecret[len(TokenPrefix):]) {
			t.Fatal(who["id"])
		}
	})
}

// Settings are read per request (ARCHITECTURE.md 3: a change takes effect without a restart):
// mcp.requireAuth off makes every caller the anonymous read-only principal; mcp.externalAccess
// off answers every MCP call with 403 -33007.
func TestSettingsAreReadPerRequest(t *testing.T) {
	off := config.DefaultSettings().MCP
	off.RequireAuth = false
	r := newRig(t, rigOptions{settings: &off})
	_, secret := r.create("rw", LevelReadWrite, nil, nil)

	t.Run("with mcp.requireAuth off a caller without a token is the anonymous read-only principal", func(t *testing.T) {
		who := r.whoami("")
		if who["id"] != "anonymous" || who["anonymous"] != true || !reflect.DeepEqual(who["scopes"], []any{"tools:read", "resources:read"}) {
			t.Fatalf("%v", who)
		}
	})
	t.Run("with mcp.requireAuth off a presented token is not used: every caller is anonymous", func(t *testing.T) {
		if who := r.whoami(secret); who["id"] != "anonymous" {
			t.Fatalf("%v", who)
		}
	})
	t.Run("turning mcp.requireAuth on refuses the next request without a token, with no restart", func(t *testing.T) {
		on := off
		on.RequireAuth = true
		r.svc.Apply(on)
		if rep := r.call("", "tools/list", nil); rep.Status != 401 || rep.code() != mcp.CodeUnauthenticated {
			t.Fatalf("%d %+v", rep.Status, rep.Error)
		}
		if who := r.whoami(secret); who["name"] != "rw" {
			t.Fatalf("%v", who)
		}
	})
	for _, auth := range []string{"on", "off"} {
		t.Run("mcp.externalAccess off answers every call 403 -33007, authentication "+auth, func(t *testing.T) {
			set := off
			set.RequireAuth = auth == "on"
			set.ExternalAccess = false
			r.svc.Apply(set)
			defer r.svc.Apply(off)
			for _, c := range []struct{ bearer, method string }{
				{"", "tools/list"}, {"Bearer " + secret, "tools/list"}, {"Bearer " + secret, "server/discover"}, {"", "ping"},
			} {
				rep := r.call(c.bearer, c.method, nil)
				if rep.Status != 403 || rep.code() != mcp.CodeForbidden || rep.Header.Get("WWW-Authenticate") != "" {
					t.Fatalf("%s (token %v): %d %+v", c.method, c.bearer != "", rep.Status, rep.Error)
				}
			}
		})
	}
	t.Run("a new service requires authentication and allows external access until settings are applied", func(t *testing.T) {
		s := NewService(Options{Store: r.store, Log: quietLog()})
		req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", nil)
		_, err := s.Authenticate(req)
		var e *mcp.Error
		if !asMCPError(err, &e) || e.Code != mcp.CodeUnauthenticated {
			t.Fatalf("%v", err)
		}
	})
	t.Run("a new config dir requires authentication and allows external access (the documented default)", func(t *testing.T) {
		d := config.DefaultSettings().MCP
		if !d.RequireAuth || !d.ExternalAccess {
			t.Fatalf("%+v", d)
		}
	})
}

// REFERENCE.md: users of the desktop client this spec follows reported a deadlock on the first
// request after enabling auth. A token created by another process (the CLI) while the app runs
// is served on its very first request, without waiting for a poll.
func TestTokenCreatedWhileRunningIsServedAtOnce(t *testing.T) {
	r := newRig(t, rigOptions{start: true}) // the poll runs hourly here: only the request can notice
	_, first := r.create("before", LevelReadOnly, nil, nil)
	if who := r.whoami(first); who["name"] != "before" {
		t.Fatalf("%v", who)
	}
	cli := NewStore(r.dir, openKeys(t, r.dir)) // another process's view of the same config dir
	for i, level := range []string{LevelReadOnly, LevelFullAccess} {
		t.Run("a "+level+" token made by the CLI answers its first request", func(t *testing.T) {
			tok, secret, err := cli.Create(context.Background(), NewToken{Name: "new" + string(rune('a'+i)), Level: level})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan map[string]any, 1)
			go func() {
				rep, err := r.tryCall("Bearer "+secret, "tools/call", map[string]any{"name": "whoami", "arguments": map[string]any{}})
				if err != nil || rep.Result == nil {
					done <- nil
					return
				}
				done <- rep.Result["structuredContent"].(map[string]any)
			}()
			select {
			case who := <-done:
				if who == nil || who["id"] != tok.PrincipalID() {
					t.Fatalf("first request: %v", who)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the first request with a new token hung")
			}
		})
	}
}

// SPEC.md B "States and transitions": a token revoked while its request is in flight cancels
// all of that token's requests with -33002; the next request is 401.
func TestRevokedTokenEndsItsRequestsInFlight(t *testing.T) {
	for _, how := range []string{"in the app (Service.Revoke)", "by the CLI, noticed by the poll"} {
		t.Run("revoked "+how+": its request in flight ends with -33002 and another token's does not", func(t *testing.T) {
			r := newRig(t, rigOptions{start: true, pollEvery: 20 * time.Millisecond})
			gone, goneSecret := r.create("gone", LevelReadOnly, nil, nil)
			_, keptSecret := r.create("kept", LevelReadOnly, nil, nil)
			goneDone, keptDone := make(chan reply, 1), make(chan reply, 1)
			for secret, ch := range map[string]chan reply{goneSecret: goneDone, keptSecret: keptDone} {
				go func() {
					rep, err := r.tryCall("Bearer "+secret, "tools/call", map[string]any{"name": "wait", "arguments": map[string]any{}})
					if err != nil {
						rep.Status = -1
					}
					ch <- rep
				}()
			}
			for range 2 {
				select {
				case <-r.started:
				case <-time.After(10 * time.Second):
					t.Fatal("the wait calls did not start")
				}
			}
			var err error
			if strings.HasPrefix(how, "in the app") {
				_, err = r.svc.Revoke(context.Background(), gone.ID)
			} else {
				_, err = NewStore(r.dir, openKeys(t, r.dir)).Revoke(context.Background(), "gone")
			}
			if err != nil {
				t.Fatal(err)
			}
			select {
			case rep := <-goneDone:
				if rep.Status != 200 || rep.code() != mcp.CodeRequestCancelled {
					t.Fatalf("revoked token's request: %d %+v", rep.Status, rep.Error)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the revoked token's request is still running")
			}
			select {
			case rep := <-keptDone:
				t.Fatalf("the other token's request ended: %d %+v", rep.Status, rep.Error)
			default:
			}
			close(r.unblock)
			if rep := <-keptDone; rep.Status != 200 || rep.Error != nil {
				t.Fatalf("kept: %d %+v", rep.Status, rep.Error)
			}
			if rep := r.tool(goneSecret, "whoami"); rep.Status != 401 || rep.code() != mcp.CodeUnauthenticated ||
				rep.Header.Get("WWW-Authenticate") != ChallengeInvalid {
				t.Fatalf("after revocation: %d %+v", rep.Status, rep.Error)
			}
		})
	}
}

func asMCPError(err error, target **mcp.Error) bool {
	e, ok := err.(*mcp.Error)
	if ok {
		*target = e
	}
	return ok
}
