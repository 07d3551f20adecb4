package approval

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"app/backend/secrets"
)

func testKeys(t *testing.T) secrets.Keyring {
	t.Helper()
	k, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(t.TempDir(), "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// fakeClock is the one fake here: no real component can move time 5 minutes ahead.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// SPEC.md B "States and transitions": requestState is issued valid 5 minutes; a follow-up with
// any argument changed, a bad state or one older than 5 minutes is rejected.
func TestRequestState(t *testing.T) {
	keys := testKeys(t)
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	s := newSigner(keys, clock.Now)
	args := json.RawMessage(`{"connection":"c1","query":"POST /v1/objects {\"class\":\"A\"}"}`)
	issue := func(t *testing.T) string {
		st, err := s.issue("tok1", "execute_query", args)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	bad := func(t *testing.T, err error, why string) {
		t.Helper()
		if !errors.Is(err, errBadState) || !strings.Contains(err.Error(), why) {
			t.Fatalf("want a bad state (%s), got %v", why, err)
		}
	}

	t.Run("a valid state with unchanged arguments is accepted once", func(t *testing.T) {
		st := issue(t)
		if err := s.redeem(st, "tok1", "execute_query", args); err != nil {
			t.Fatal(err)
		}
		bad(t, s.redeem(st, "tok1", "execute_query", args), "already used")
	})
	t.Run("the same arguments encoded differently are unchanged", func(t *testing.T) {
		st := issue(t)
		reordered := json.RawMessage(`{ "query": "POST /v1/objects {\"class\":\"A\"}", "connection": "c1" }`)
		if err := s.redeem(st, "tok1", "execute_query", reordered); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a changed argument is refused", func(t *testing.T) {
		bad(t, s.redeem(issue(t), "tok1", "execute_query", json.RawMessage(`{"connection":"c2","query":"POST /v1/objects {\"class\":\"A\"}"}`)), "arguments changed")
	})
	t.Run("another principal's state is refused", func(t *testing.T) {
		bad(t, s.redeem(issue(t), "tok2", "execute_query", args), "another principal")
	})
	t.Run("a state issued for another tool is refused", func(t *testing.T) {
		bad(t, s.redeem(issue(t), "tok1", "insert_rows", args), "issued for tool")
	})
	t.Run("a tampered state is refused", func(t *testing.T) {
		st := issue(t)
		payload, sig, _ := strings.Cut(st, ".")
		b := []byte(payload)
		b[3] ^= 1
		bad(t, s.redeem(string(b)+"."+sig, "tok1", "execute_query", args), "")
		bad(t, s.redeem("not-a-state", "tok1", "execute_query", args), "malformed")
	})
	t.Run("a state signed by another install's key is refused", func(t *testing.T) {
		other := newSigner(testKeys(t), clock.Now)
		st, err := other.issue("tok1", "execute_query", args)
		if err != nil {
			t.Fatal(err)
		}
		bad(t, s.redeem(st, "tok1", "execute_query", args), "signature")
	})
	t.Run("a state older than 5 minutes is refused; just under is accepted", func(t *testing.T) {
		young, old := issue(t), issue(t)
		clock.Add(StateLifetime - time.Millisecond)
		if err := s.redeem(young, "tok1", "execute_query", args); err != nil {
			t.Fatal(err)
		}
		clock.Add(time.Millisecond)
		bad(t, s.redeem(old, "tok1", "execute_query", args), "expired")
	})
	t.Run("the signing key is kept in the keyring; a state issued before a restart is refused, so it cannot be replayed", func(t *testing.T) {
		st := issue(t)
		restarted := newSigner(keys, clock.Now)
		bad(t, restarted.redeem(st, "tok1", "execute_query", args), "restarted")
		v, err := keys.Get(stateKeyRef)
		if err != nil || v == "" {
			t.Fatalf("key in keyring: %q %v", v, err)
		}
		fresh, err := restarted.issue("tok1", "execute_query", args)
		if err != nil {
			t.Fatal(err)
		}
		if err := restarted.redeem(fresh, "tok1", "execute_query", args); err != nil {
			t.Fatal(err)
		}
		if after, _ := keys.Get(stateKeyRef); after != v {
			t.Fatal("the restarted app made a new key instead of reading the kept one")
		}
	})
}

func TestClipKeepsLineBreaksAndTheLimit(t *testing.T) {
	s := "line one\nline two\n" + strings.Repeat("é", 3000)
	c := Clip(s)
	if n := len([]rune(c)); n != MaxStatementChars || !strings.HasPrefix(c, "line one\nline two\n") || !strings.HasSuffix(c, "…") {
		t.Fatalf("clip: %d runes, %q...", n, c[:30])
	}
	if Clip("short\ntext") != "short\ntext" {
		t.Fatal("a short statement must be verbatim")
	}
}
