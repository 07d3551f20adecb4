package auth

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"app/backend/config"
	"app/backend/mcp"
)

// rateLimited checks a 429 -33010 with Retry-After in whole seconds.
func rateLimited(t *testing.T, rep reply, retryAfter int) {
	t.Helper()
	if rep.Status != http.StatusTooManyRequests || rep.code() != mcp.CodeRateLimited {
		t.Fatalf("got %d %+v, want 429 -33010", rep.Status, rep.Error)
	}
	if got := rep.Header.Get("Retry-After"); got != strconv.Itoa(retryAfter) {
		t.Fatalf("Retry-After %q, want %d", got, retryAfter)
	}
	if rep.Error.Data["retryAfterSeconds"] != float64(retryAfter) {
		t.Fatalf("data %v", rep.Error.Data)
	}
}

// Issue 11 "Rate limits per caller: 429 -33010 with Retry-After" with the app's values
// (mcp.rateLimitPerMinute 240 for a new config dir, bursts of a quarter of it: 60); time is
// the fake clock's.
func TestRateLimitPerCaller(t *testing.T) {
	perMinute := config.DefaultSettings().MCP.RateLimitPerMinute
	if perMinute != 240 || Burst(perMinute) != 60 {
		t.Fatalf("documented values changed: %d a minute, bursts of %d", perMinute, Burst(perMinute))
	}
	burst := Burst(perMinute)
	r := newRig(t, rigOptions{})
	_, a := r.create("a", LevelReadOnly, nil, nil)
	_, b := r.create("b", LevelReadOnly, nil, nil)
	t.Run("a caller may send 60 requests at once; the 61st is 429 -33010 with Retry-After 1", func(t *testing.T) {
		for i := range burst {
			if rep := r.call("Bearer "+a, "tools/list", nil); rep.Status != 200 {
				t.Fatalf("request %d: %d %+v", i+1, rep.Status, rep.Error)
			}
		}
		rateLimited(t, r.call("Bearer "+a, "tools/list", nil), 1)
	})
	t.Run("a refused request does not use up the allowance: a quarter second later one more is served", func(t *testing.T) {
		rateLimited(t, r.call("Bearer "+a, "tools/list", nil), 1)
		r.clock.Advance(250 * time.Millisecond)
		if rep := r.call("Bearer "+a, "tools/list", nil); rep.Status != 200 {
			t.Fatalf("%d %+v", rep.Status, rep.Error)
		}
		rateLimited(t, r.call("Bearer "+a, "tools/list", nil), 1)
	})
	t.Run("the limit is per caller: another token is served", func(t *testing.T) {
		if rep := r.call("Bearer "+b, "tools/list", nil); rep.Status != 200 {
			t.Fatalf("%d %+v", rep.Status, rep.Error)
		}
	})
	t.Run("after a quiet quarter minute the caller has its whole burst again", func(t *testing.T) {
		r.clock.Advance(15 * time.Second)
		for i := range burst {
			if rep := r.call("Bearer "+a, "tools/list", nil); rep.Status != 200 {
				t.Fatalf("request %d: %d", i+1, rep.Status)
			}
		}
	})
	t.Run("a changed mcp.rateLimitPerMinute applies to the next request, with a full burst", func(t *testing.T) {
		set := config.DefaultSettings().MCP
		set.RateLimitPerMinute = 8 // bursts of 2
		r.svc.Apply(set)
		for range 2 {
			if rep := r.call("Bearer "+a, "tools/list", nil); rep.Status != 200 {
				t.Fatal(rep.Status)
			}
		}
		rateLimited(t, r.call("Bearer "+a, "tools/list", nil), 8) // one every 7.5 s
	})
	t.Run("mcp.rateLimitPerMinute 0 turns the rate limit off", func(t *testing.T) {
		set := config.DefaultSettings().MCP
		set.RateLimitPerMinute = 0
		r.svc.Apply(set)
		for i := range 3 * burst {
			if rep := r.call("Bearer "+a, "tools/list", nil); rep.Status != 200 {
				t.Fatalf("request %d: %d", i+1, rep.Status)
			}
		}
	})
	t.Run("the anonymous principal is a caller too", func(t *testing.T) {
		set := config.DefaultSettings().MCP
		set.RequireAuth, set.RateLimitPerMinute = false, 8
		anon := newRig(t, rigOptions{settings: &set})
		for range 2 {
			if rep := anon.call("", "tools/list", nil); rep.Status != 200 {
				t.Fatal(rep.Status)
			}
		}
		rateLimited(t, anon.call("", "tools/list", nil), 8)
	})
}

// Issue 11: "and a concurrency cap per caller": at most 8 requests of one caller are being
// answered at once; the 9th is 429 -33010 with Retry-After; an answered request frees its slot.
func TestInFlightCapPerCaller(t *testing.T) {
	if DefaultLimits().MaxInFlight != 8 {
		t.Fatal("documented value changed")
	}
	r := newRig(t, rigOptions{})
	_, a := r.create("a", LevelReadOnly, nil, nil)
	_, b := r.create("b", LevelReadOnly, nil, nil)
	done := make(chan reply, 8)
	for range 8 {
		go func() {
			rep, _ := r.tryCall("Bearer "+a, "tools/call", map[string]any{"name": "wait", "arguments": map[string]any{}})
			done <- rep
		}()
	}
	for range 8 {
		select {
		case <-r.started:
		case <-time.After(10 * time.Second):
			t.Fatal("8 calls did not start")
		}
	}
	r.drainAnswered()
	t.Run("the 9th concurrent request of a caller is 429 -33010 with Retry-After 1", func(t *testing.T) {
		rateLimited(t, r.call("Bearer "+a, "tools/list", nil), 1)
	})
	t.Run("another caller is not held up", func(t *testing.T) {
		if rep := r.call("Bearer "+b, "tools/list", nil); rep.Status != 200 {
			t.Fatal(rep.Status)
		}
	})
	t.Run("once its requests are answered the caller is served again", func(t *testing.T) {
		r.drainAnswered()
		close(r.unblock)
		for range 8 {
			if rep := <-done; rep.Status != 200 || rep.Error != nil {
				t.Fatalf("%d %+v", rep.Status, rep.Error)
			}
		}
		r.waitAnswered(8) // the observer hears of a request after its slot is given back
		if rep := r.call("Bearer "+a, "tools/list", nil); rep.Status != 200 {
			t.Fatalf("%d %+v", rep.Status, rep.Error)
		}
	})
}

// Issue 11: "repeated failed authentications lock the caller (by token prefix ...) out for a
// while", with the app's values: 5 failures under one prefix within 5 minutes lock that prefix
// out for 5 minutes; 30 failures under any prefixes within a minute lock every token out for a
// minute. A locked-out caller gets 429 -33010 with Retry-After.
func TestFailedAuthenticationLockout(t *testing.T) {
	l := DefaultLimits()
	if l.FailuresToLock != 5 || l.FailureWindow != 5*time.Minute || l.LockFor != 5*time.Minute ||
		l.GlobalFailuresToLock != 30 || l.GlobalFailureWindow != time.Minute || l.GlobalLockFor != time.Minute {
		t.Fatalf("documented values changed: %+v", l)
	}
	t.Run("5 failures under a token's prefix lock it out for 5 minutes, even the right token", func(t *testing.T) {
		r := newRig(t, rigOptions{})
		_, secret := r.create("t", LevelReadOnly, nil, nil)
		_, other := r.create("other", LevelReadOnly, nil, nil)
		wrong := flipLast(secret) // same prefix, same length
		for i := range 5 {
			if rep := r.call("Bearer "+wrong, "tools/list", nil); rep.Status != 401 {
				t.Fatalf("attempt %d: %d", i+1, rep.Status)
			}
		}
		rateLimited(t, r.call("Bearer "+secret, "tools/list", nil), 300)
		rateLimited(t, r.call("Bearer "+wrong, "tools/list", nil), 300)
		if rep := r.call("Bearer "+other, "tools/list", nil); rep.Status != 200 {
			t.Fatalf("another prefix is locked too: %d", rep.Status)
		}
		r.clock.Advance(4 * time.Minute)
		rateLimited(t, r.call("Bearer "+secret, "tools/list", nil), 60)
		r.clock.Advance(time.Minute)
		if rep := r.call("Bearer "+secret, "tools/list", nil); rep.Status != 200 {
			t.Fatalf("after 5 minutes: %d %+v", rep.Status, rep.Error)
		}
	})
	t.Run("failures spread over more than the window do not lock", func(t *testing.T) {
		r := newRig(t, rigOptions{})
		_, secret := r.create("t", LevelReadOnly, nil, nil)
		for i := range 8 {
			if rep := r.call("Bearer "+flipLast(secret), "tools/list", nil); rep.Status != 401 {
				t.Fatalf("attempt %d: %d", i+1, rep.Status)
			}
			r.clock.Advance(76 * time.Second) // at most 4 inside any 5 minutes
		}
	})
	t.Run("a request without a token is not a failed attempt", func(t *testing.T) {
		r := newRig(t, rigOptions{})
		for range 10 {
			if rep := r.call("", "tools/list", nil); rep.Status != 401 || rep.Header.Get("WWW-Authenticate") != ChallengeMissing {
				t.Fatalf("%d", rep.Status)
			}
		}
	})
	t.Run("30 failures under any prefixes within a minute lock every token out for a minute", func(t *testing.T) {
		r := newRig(t, rigOptions{})
		_, secret := r.create("t", LevelReadOnly, nil, nil)
		for i := range 30 {
			guess, _ := newSecret() // a new prefix each time
			if rep := r.call("Bearer "+guess, "tools/list", nil); rep.Status != 401 {
				t.Fatalf("guess %d: %d", i+1, rep.Status)
			}
		}
		rateLimited(t, r.call("Bearer "+secret, "tools/list", nil), 60)
		if rep := r.call("", "tools/list", nil); rep.Status != 401 {
			t.Fatalf("without a token: %d, want the 401 challenge", rep.Status)
		}
		r.clock.Advance(time.Minute)
		if rep := r.call("Bearer "+secret, "tools/list", nil); rep.Status != 200 {
			t.Fatalf("after a minute: %d", rep.Status)
		}
	})
	t.Run("an expired token is not a failed attempt", func(t *testing.T) {
		r := newRig(t, rigOptions{})
		soon := r.clock.Now().Add(time.Minute)
		_, secret := r.create("t", LevelReadOnly, nil, &soon)
		r.clock.Advance(2 * time.Minute)
		for range 8 {
			if rep := r.call("Bearer "+secret, "tools/list", nil); rep.code() != mcp.CodeTokenExpired {
				t.Fatalf("%d %+v", rep.Status, rep.Error)
			}
		}
	})
}

// lastUsedAt is recorded without writing the tokens file per request: at most once a minute
// per token (UsageWriteEvery), by the poll, and once more at a clean stop.
func TestLastUsedAtIsWrittenAtMostOnceAMinute(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{})
	tok, secret := r.create("t", LevelReadOnly, nil, nil)
	lastUsed := func() *time.Time {
		got, err := r.store.Get(ctx, tok.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.LastUsedAt
	}
	t0 := r.clock.Now()
	before := r.store.stamp()
	for range 10 {
		r.whoami(secret)
	}
	t.Run("requests do not write the file", func(t *testing.T) {
		if !before.Same(r.store.stamp()) || lastUsed() != nil {
			t.Fatal("the tokens file changed on a request")
		}
	})
	t.Run("the first use is written at the next poll", func(t *testing.T) {
		r.svc.flushUsage(ctx, false)
		if at := lastUsed(); at == nil || !at.Equal(t0) {
			t.Fatalf("lastUsedAt %v, want %v", at, t0)
		}
	})
	t.Run("a use less than a minute later is not written yet", func(t *testing.T) {
		r.clock.Advance(30 * time.Second)
		r.whoami(secret)
		st := r.store.stamp()
		r.svc.flushUsage(ctx, false)
		if at := lastUsed(); !at.Equal(t0) || !st.Same(r.store.stamp()) {
			t.Fatalf("written early: %v", at)
		}
	})
	t.Run("a minute after the last write it is", func(t *testing.T) {
		r.clock.Advance(30 * time.Second)
		r.svc.flushUsage(ctx, false)
		if at := lastUsed(); !at.Equal(t0.Add(30 * time.Second)) {
			t.Fatalf("lastUsedAt %v", at)
		}
	})
	t.Run("a clean stop writes what is pending", func(t *testing.T) {
		r.clock.Advance(5 * time.Second)
		r.whoami(secret)
		r.svc.Start()
		r.svc.Stop()
		if at := lastUsed(); !at.Equal(t0.Add(65 * time.Second)) {
			t.Fatalf("lastUsedAt %v", at)
		}
	})
}

// Issue 25, item 8: a request waiting for the person (parked) is out of its caller's
// in-flight count until it is unparked, and parking, unparking and release in any order
// leave the count where it started.
func TestAParkedRequestIsOutOfTheInFlightCap(t *testing.T) {
	cs := newCallers(0, 2)
	now := time.Now()
	admit := func() *slot {
		t.Helper()
		s, _, why := cs.admit("p", now)
		if why != "" {
			t.Fatalf("refused: %s", why)
		}
		return s
	}
	a, b := admit(), admit()
	if _, _, why := cs.admit("p", now); why == "" {
		t.Fatal("a third request in flight was admitted with a cap of 2")
	}
	unpark := a.park()
	c := admit() // a waits for the person: its place is free
	if _, _, why := cs.admit("p", now); why == "" {
		t.Fatal("the cap is not kept once a parked request left it")
	}
	c.release()
	unpark()
	if _, _, why := cs.admit("p", now); why == "" {
		t.Fatal("an unparked request is not counted again")
	}
	// Released while parked (its request ended during the wait): the late unpark counts nothing.
	unpark = b.park()
	b.release()
	unpark()
	a.release()
	a.release()
	if got := cs.get("p").inflight.Load(); got != 0 {
		t.Fatalf("in flight after every request ended: %d", got)
	}
}
