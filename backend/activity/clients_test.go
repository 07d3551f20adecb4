package activity

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"app/backend/mcp"
)

// fakeClock is a clock the test moves by hand (Recent measures from it).
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Issue 11, "Connected clients": who called in the last minutes, with token, first and last
// seen, requests and errors.
func TestClients(t *testing.T) {
	clock := &fakeClock{now: t0.Add(10 * time.Minute)}
	rec := func(client, principal, token string, at time.Time, errCode int, toolErr string) mcp.Record {
		return mcp.Record{Start: at, Duration: time.Second, Client: &mcp.ClientInfo{Name: client, Version: "1.0"},
			Principal: mcp.Principal{ID: principal, Name: token, Level: "readOnly"}, ErrorCode: errCode, ToolError: toolErr}
	}
	c := NewClients(clock.Now, 0)
	c.Observe(rec("claude-code", "token:a", "laptop", t0, 0, ""))
	c.Observe(rec("claude-code", "token:a", "laptop", t0.Add(5*time.Minute), 0, "query_failed"))
	c.Observe(rec("claude-code", "token:b", "ci", t0.Add(9*time.Minute), -33007, ""))
	c.Observe(rec("cursor", "token:a", "laptop", t0.Add(2*time.Minute), 0, ""))
	c.Observe(mcp.Record{Start: t0.Add(8 * time.Minute), ErrorCode: -33009}) // no token, no client info

	t.Run("one row per client name and principal, most recently seen first", func(t *testing.T) {
		all := c.All()
		var keys []string
		for _, cl := range all {
			keys = append(keys, cl.Name+"/"+cl.Principal)
		}
		if len(all) != 4 || all[0].Principal != "token:b" || all[1].Principal != "" || all[2].Name != "claude-code" || all[2].Principal != "token:a" {
			t.Fatalf("%v", keys)
		}
	})
	t.Run("requests, errors, first and last seen are counted", func(t *testing.T) {
		var cl Client
		for _, x := range c.All() {
			if x.Name == "claude-code" && x.Principal == "token:a" {
				cl = x
			}
		}
		if cl.Requests != 2 || cl.Errors != 1 || cl.TokenName != "laptop" || cl.Version != "1.0" ||
			!cl.FirstSeen.Equal(t0.Add(time.Second)) || !cl.LastSeen.Equal(t0.Add(5*time.Minute+time.Second)) {
			t.Fatalf("%+v", cl)
		}
	})
	t.Run("a protocol error counts as an error", func(t *testing.T) {
		if cl := c.All()[0]; cl.Errors != 1 || cl.Requests != 1 {
			t.Fatalf("%+v", cl)
		}
	})
	t.Run("Recent is who called within the window", func(t *testing.T) {
		got := c.Recent(3 * time.Minute) // since t0+7m
		if len(got) != 2 || got[0].Principal != "token:b" || got[1].Principal != "" {
			t.Fatalf("%+v", got)
		}
		clock.mu.Lock()
		clock.now = clock.now.Add(time.Hour)
		clock.mu.Unlock()
		if got := c.Recent(5 * time.Minute); len(got) != 0 {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("Forget drops every client of a revoked principal", func(t *testing.T) {
		c.Forget("token:a")
		for _, cl := range c.All() {
			if cl.Principal == "token:a" {
				t.Fatalf("%+v", cl)
			}
		}
	})
	t.Run("the table is bounded: the least recently seen client goes", func(t *testing.T) {
		b := NewClients(clock.Now, 3)
		for i := range 5 {
			b.Observe(rec(fmt.Sprint("client-", i), "anonymous", "", t0.Add(time.Duration(i)*time.Minute), 0, ""))
		}
		all := b.All()
		if len(all) != 3 || all[0].Name != "client-4" || all[2].Name != "client-2" {
			t.Fatalf("%+v", all)
		}
	})
	t.Run("concurrent observers are race-free", func(t *testing.T) {
		b := NewClients(nil, 0)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 100 {
					b.Observe(rec("c", fmt.Sprint(g), "", time.Now(), 0, ""))
					_ = b.Recent(time.Minute)
				}
			}()
		}
		wg.Wait()
		var total int64
		for _, cl := range b.All() {
			total += cl.Requests
		}
		if total != 800 {
			t.Fatalf("%d requests", total)
		}
	})
}
