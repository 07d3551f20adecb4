package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// fakeClock is a fake: no real clock can idle for days inside a test.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func mustCreate(t *testing.T, st *Store, principal string) Session {
	t.Helper()
	s, err := st.Create(principal, "2025-11-25", ClientInfo{Name: "c", Version: "1"}, json.RawMessage(`{}`))
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return s
}

func TestStoreHoldsAtMost16SessionsLeastRecentlyUsedEvicted(t *testing.T) {
	tests := []struct {
		name        string
		touch       []int // indexes of the first 16 sessions used again before the 17th is created
		wantEvicted int   // index of the session that must be gone
	}{
		{name: "with no use since creation the oldest session is evicted", wantEvicted: 0},
		{name: "a session used again is kept and the next least recently used is evicted", touch: []int{0}, wantEvicted: 1},
		{name: "using every session but one makes that one the least recently used", touch: []int{0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15}, wantEvicted: 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ended []Session
			st := New(Options{OnEnd: func(s Session, why EndReason) {
				if why != Evicted {
					t.Errorf("end reason = %v, want evicted", why)
				}
				ended = append(ended, s)
			}})
			var ss []Session
			for range Max {
				ss = append(ss, mustCreate(t, st, "p"))
			}
			for _, i := range tc.touch {
				if _, err := st.Get(ss[i].ID, "p"); err != nil {
					t.Fatalf("Get(%d): %v", i, err)
				}
			}
			extra := mustCreate(t, st, "p")
			if got := st.Len(); got != Max {
				t.Fatalf("Len = %d, want %d", got, Max)
			}
			for i, s := range ss {
				_, err := st.Get(s.ID, "p")
				if i == tc.wantEvicted {
					if !errors.Is(err, ErrNotFound) {
						t.Errorf("evicted session %d: err = %v, want ErrNotFound", i, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("session %d: %v, want kept", i, err)
				}
			}
			if _, err := st.Get(extra.ID, "p"); err != nil {
				t.Errorf("new session: %v", err)
			}
			if len(ended) != 1 || ended[0].ID != ss[tc.wantEvicted].ID {
				t.Errorf("OnEnd saw %d sessions, want exactly the evicted one", len(ended))
			}
		})
	}
}

func TestSessionIsBoundToItsPrincipal(t *testing.T) {
	st := New(Options{})
	s := mustCreate(t, st, "token-a")
	tests := []struct {
		name      string
		principal string
		wantErr   error
	}{
		{name: "the creating principal finds its session", principal: "token-a"},
		{name: "another token gets not found", principal: "token-b", wantErr: ErrNotFound},
		{name: "the anonymous principal gets not found for a token's session", principal: "anonymous", wantErr: ErrNotFound},
		{name: "an empty principal gets not found", principal: "", wantErr: ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.Get(s.ID, tc.principal)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if err == nil && got.PrincipalID != "token-a" {
				t.Errorf("PrincipalID = %q", got.PrincipalID)
			}
		})
	}
	t.Run("a lookup under another principal does not make the session recently used", func(t *testing.T) {
		st := New(Options{Max: 2})
		a := mustCreate(t, st, "token-a")
		mustCreate(t, st, "token-a")
		if _, err := st.Get(a.ID, "token-b"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("err = %v", err)
		}
		mustCreate(t, st, "token-a")
		if _, err := st.Get(a.ID, "token-a"); !errors.Is(err, ErrNotFound) {
			t.Errorf("first session survived: the foreign lookup refreshed it")
		}
	})
	t.Run("Update cannot move a session to another principal", func(t *testing.T) {
		if err := st.Update(s.ID, "token-a", func(s *Session) { s.PrincipalID = "token-b"; s.ID = "x" }); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Get(s.ID, "token-a"); err != nil {
			t.Errorf("after Update: %v", err)
		}
	})
}

func TestUnknownSessionIsNotFound(t *testing.T) {
	st := New(Options{})
	mustCreate(t, st, "p")
	for _, id := range []string{"", "nope", "0000000000000000000000000000000000000000000"} {
		t.Run(fmt.Sprintf("id %q", id), func(t *testing.T) {
			if _, err := st.Get(id, "p"); !errors.Is(err, ErrNotFound) {
				t.Errorf("err = %v, want ErrNotFound", err)
			}
		})
	}
}

func TestIdleSessionStillWorksWhileInTheStore(t *testing.T) {
	for _, idle := range []time.Duration{31 * time.Second, time.Hour, 24 * time.Hour, 90 * 24 * time.Hour} {
		t.Run(fmt.Sprintf("after idling %v", idle), func(t *testing.T) {
			clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			st := New(Options{Now: clk.Now})
			s := mustCreate(t, st, "p")
			clk.Advance(idle)
			got, err := st.Get(s.ID, "p")
			if err != nil {
				t.Fatalf("Get after idling: %v", err)
			}
			if !got.LastUsed.Equal(clk.Now()) {
				t.Errorf("LastUsed = %v, want %v", got.LastUsed, clk.Now())
			}
		})
	}
}

func TestSessionKeepsProtocolVersionClientInfoAndCapabilities(t *testing.T) {
	tests := []struct {
		name    string
		version string
		client  ClientInfo
		caps    string
	}{
		{name: "2025-11-25 client with elicitation", version: "2025-11-25", client: ClientInfo{Name: "inspector", Title: "MCP Inspector", Version: "2.12.0"}, caps: `{"elicitation":{}}`},
		{name: "2025-06-18 client with no capabilities", version: "2025-06-18", client: ClientInfo{Name: "sdk", Version: "1.32.2"}, caps: `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := New(Options{})
			s, err := st.Create("p", tc.version, tc.client, json.RawMessage(tc.caps))
			if err != nil {
				t.Fatal(err)
			}
			got, err := st.Get(s.ID, "p")
			if err != nil {
				t.Fatal(err)
			}
			if got.ProtocolVersion != tc.version || got.Client != tc.client || string(got.Capabilities) != tc.caps {
				t.Errorf("got %+v", got)
			}
		})
	}
	t.Run("logging/setLevel is kept per session", func(t *testing.T) {
		st := New(Options{})
		a, b := mustCreate(t, st, "p"), mustCreate(t, st, "p")
		if err := st.Update(a.ID, "p", func(s *Session) { s.LogLevel = "debug" }); err != nil {
			t.Fatal(err)
		}
		ga, _ := st.Get(a.ID, "p")
		gb, _ := st.Get(b.ID, "p")
		if ga.LogLevel != "debug" || gb.LogLevel != "" {
			t.Errorf("levels = %q, %q", ga.LogLevel, gb.LogLevel)
		}
	})
	t.Run("a returned session is a copy", func(t *testing.T) {
		st := New(Options{})
		s := mustCreate(t, st, "p")
		s.Capabilities[0] = 'X'
		s.LogLevel = "error"
		got, _ := st.Get(s.ID, "p")
		if string(got.Capabilities) != "{}" || got.LogLevel != "" {
			t.Errorf("store changed through a copy: %+v", got)
		}
	})
}

func TestSessionsEndWhenTheServerStops(t *testing.T) {
	var mu sync.Mutex
	ended := map[string]EndReason{}
	st := New(Options{OnEnd: func(s Session, why EndReason) { mu.Lock(); ended[s.ID] = why; mu.Unlock() }})
	a, b := mustCreate(t, st, "p"), mustCreate(t, st, "q")
	st.Close()
	st.Close() // idempotent
	tests := []struct {
		name string
		id   string
		pr   string
	}{
		{name: "the first session is gone", id: a.ID, pr: "p"},
		{name: "the second session is gone", id: b.ID, pr: "q"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := st.Get(tc.id, tc.pr); !errors.Is(err, ErrNotFound) {
				t.Errorf("err = %v", err)
			}
			if ended[tc.id] != Stopped {
				t.Errorf("end reason = %v, want stopped", ended[tc.id])
			}
		})
	}
	t.Run("no new session after stop", func(t *testing.T) {
		if _, err := st.Create("p", "2025-11-25", ClientInfo{}, nil); !errors.Is(err, ErrClosed) {
			t.Errorf("err = %v, want ErrClosed", err)
		}
		if st.Len() != 0 {
			t.Errorf("Len = %d", st.Len())
		}
	})
}

func TestSessionIDsAreRandomVisibleASCII(t *testing.T) {
	st := New(Options{Max: 1000})
	seen := map[string]bool{}
	for range 1000 {
		s := mustCreate(t, st, "p")
		if len(s.ID) < 32 {
			t.Fatalf("id %q is shorter than 32 characters", s.ID)
		}
		for _, c := range []byte(s.ID) {
			if c < 0x21 || c > 0x7E {
				t.Fatalf("id %q has byte %#x outside visible ASCII 0x21-0x7E", s.ID, c)
			}
		}
		if seen[s.ID] {
			t.Fatalf("id %q issued twice", s.ID)
		}
		seen[s.ID] = true
	}
}

func TestStoreIsSafeForConcurrentUse(t *testing.T) {
	st := New(Options{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			pr := fmt.Sprintf("p%d", g%3)
			for range 200 {
				s, err := st.Create(pr, "2025-06-18", ClientInfo{}, nil)
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = st.Get(s.ID, pr)
				_ = st.Update(s.ID, pr, func(s *Session) { s.LogLevel = "info" })
				_ = st.List()
				if n := st.Len(); n > Max {
					t.Errorf("Len = %d > %d", n, Max)
				}
			}
		})
	}
	wg.Wait()
	st.Close()
}

func ExampleStore() {
	st := New(Options{})
	s, _ := st.Create("anonymous", "2025-11-25", ClientInfo{Name: "inspector", Version: "2.12.0"}, nil)
	_, err := st.Get(s.ID, "another-token")
	fmt.Println(err)
	got, _ := st.Get(s.ID, "anonymous")
	fmt.Println(got.ProtocolVersion, got.Client.Name)
	st.Close()
	_, err = st.Get(s.ID, "anonymous")
	fmt.Println(err)
	// Output:
	// session not found
	// 2025-11-25 inspector
	// session not found
}

// SPEC.md B "States and transitions": a token's sessions belong to it; revoking the token ends
// them (the client must initialize again), and nobody else's.
func TestEndPrincipalEndsOnlyThatPrincipalsSessions(t *testing.T) {
	var ended []string
	st := New(Options{OnEnd: func(s Session, why EndReason) {
		if why == Revoked {
			ended = append(ended, s.PrincipalID)
		}
	}})
	a1, _ := st.Create("a", "2025-11-25", ClientInfo{Name: "x"}, nil)
	b1, _ := st.Create("b", "2025-11-25", ClientInfo{Name: "y"}, nil)
	a2, _ := st.Create("a", "2025-06-18", ClientInfo{Name: "z"}, nil)
	if n := st.EndPrincipal("a"); n != 2 || len(ended) != 2 {
		t.Fatalf("ended %d, notified %v", n, ended)
	}
	for _, id := range []string{a1.ID, a2.ID} {
		if _, err := st.Get(id, "a"); err == nil {
			t.Fatalf("session %s of the revoked principal still there", id)
		}
	}
	if _, err := st.Get(b1.ID, "b"); err != nil || st.Len() != 1 {
		t.Fatalf("another principal's session lost: %v", err)
	}
	if Revoked.String() != "revoked" {
		t.Fatal(Revoked.String())
	}
}
