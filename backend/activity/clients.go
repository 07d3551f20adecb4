package activity

import (
	"sort"
	"sync"
	"time"

	"app/backend/mcp"
)

// Client is one (client name, principal) pair that called the endpoint since the app
// started.
type Client struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Principal is the principal id ("token:<id>", "anonymous", "" when authentication
	// failed); TokenName and Level describe it ("disconnect" revokes that token).
	Principal string    `json:"principal"`
	TokenName string    `json:"tokenName"`
	Level     string    `json:"level"`
	FirstSeen time.Time `json:"firstSeen"`
	LastSeen  time.Time `json:"lastSeen"`
	Requests  int64     `json:"requests"`
	// Errors counts protocol errors and tool errors.
	Errors int64 `json:"errors"`
}

// DefaultMaxClients bounds the table: a caller that invents a new client name per request
// evicts the least recently seen entries instead of growing memory.
const DefaultMaxClients = 256

// Clients is the in-memory table of connected clients, fed by the same Records as the log.
// It is safe for concurrent use; Observe is O(1) and may run on the request goroutine.
type Clients struct {
	now func() time.Time
	max int

	mu sync.Mutex
	m  map[clientKey]*Client
}

type clientKey struct{ name, principal string }

// NewClients returns an empty table. now is the clock Recent measures from (nil:
// time.Now); max bounds the table (0: DefaultMaxClients).
func NewClients(now func() time.Time, max int) *Clients {
	if now == nil {
		now = time.Now
	}
	if max <= 0 {
		max = DefaultMaxClients
	}
	return &Clients{now: now, max: max, m: map[clientKey]*Client{}}
}

// Observe counts one answered request. Its time is when the request was answered.
func (c *Clients) Observe(rec mcp.Record) {
	seen := rec.Start.Add(rec.Duration)
	if rec.Start.IsZero() {
		seen = c.now()
	}
	var name, version string
	if rec.Client != nil {
		name, version = rec.Client.Name, rec.Client.Version
	}
	k := clientKey{name, rec.Principal.ID}
	c.mu.Lock()
	defer c.mu.Unlock()
	cl := c.m[k]
	if cl == nil {
		if len(c.m) >= c.max {
			c.evictLocked()
		}
		cl = &Client{Name: name, Principal: rec.Principal.ID, FirstSeen: seen}
		c.m[k] = cl
	}
	if version != "" {
		cl.Version = version
	}
	if rec.Principal.Name != "" || rec.Principal.Level != "" {
		cl.TokenName, cl.Level = rec.Principal.Name, rec.Principal.Level
	}
	if seen.After(cl.LastSeen) {
		cl.LastSeen = seen
	}
	if seen.Before(cl.FirstSeen) {
		cl.FirstSeen = seen
	}
	cl.Requests++
	if rec.ErrorCode != 0 || rec.ToolError != "" {
		cl.Errors++
	}
}

func (c *Clients) evictLocked() {
	var oldest clientKey
	var at time.Time
	first := true
	for k, cl := range c.m {
		if first || cl.LastSeen.Before(at) {
			oldest, at, first = k, cl.LastSeen, false
		}
	}
	delete(c.m, oldest)
}

// All is every client, most recently seen first.
func (c *Clients) All() []Client { return c.since(time.Time{}) }

// Recent is the clients seen within window of now ("who called in the last minutes"), most
// recently seen first.
func (c *Clients) Recent(window time.Duration) []Client { return c.since(c.now().Add(-window)) }

// Forget removes every client of a principal (after its token is revoked).
func (c *Clients) Forget(principal string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.m {
		if k.principal == principal {
			delete(c.m, k)
		}
	}
}

func (c *Clients) since(t time.Time) []Client {
	c.mu.Lock()
	out := make([]Client, 0, len(c.m))
	for _, cl := range c.m {
		if !cl.LastSeen.Before(t) {
			out = append(out, *cl)
		}
	}
	c.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].LastSeen.Equal(out[j].LastSeen) {
			return out[i].LastSeen.After(out[j].LastSeen)
		}
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Principal < out[j].Principal
	})
	return out
}
