// Package session is the store of legacy-era MCP sessions (SPEC.md B "States and
// transitions": sessions; "Limits": legacy sessions).
//
// A legacy client (protocol 2025-11-25 or 2025-06-18) opens with initialize and then sends
// the Mcp-Session-Id it was given on every request. The store keeps, per session, the
// principal that created it, the negotiated protocol version, the client's info and
// capabilities and its logging level. The rules it enforces:
//
//   - at most Max (16) sessions; creating one more evicts the least recently used;
//   - a session belongs to the principal that created it: looked up under any other
//     principal it is not found (the caller answers -33001, the same as unknown);
//   - a session does not expire by idling: it is valid for as long as it is in the store;
//   - Close ends every session and refuses new ones (the server has stopped).
//
// Session IDs are 256-bit values from crypto/rand in unpadded base64url, so they consist of
// visible ASCII only, as the MCP transport requires of Mcp-Session-Id.
//
// The store is safe for concurrent use. Lookups return copies; change a session with Update.
package session

import (
	"container/list"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"sync"
	"time"
)

// Max is the number of sessions the store holds (SPEC.md B "Limits": legacy sessions).
const Max = 16

// Errors returned by the store.
var (
	// ErrNotFound: no such session for this principal (unknown, evicted, ended, or owned by
	// another principal). The transport answers it with -33001 / HTTP 404.
	ErrNotFound = errors.New("session not found")
	// ErrClosed: the store was closed because the server stopped.
	ErrClosed = errors.New("session store closed")
)

// ClientInfo is the client's self-description from initialize (name, title, version).
type ClientInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// Session is a copy of one session's state.
type Session struct {
	// ID is the Mcp-Session-Id value.
	ID string
	// PrincipalID is the principal (token ID or "anonymous") that owns the session.
	PrincipalID string
	// ProtocolVersion is the version negotiated at initialize.
	ProtocolVersion string
	// Client is what the client said about itself at initialize.
	Client ClientInfo
	// Capabilities is the client's capabilities object from initialize (raw JSON object).
	Capabilities json.RawMessage
	// LogLevel is the level last set with logging/setLevel ("" until set).
	LogLevel string
	// Created and LastUsed are for the connected-clients list; LastUsed never expires a session.
	Created  time.Time
	LastUsed time.Time
}

// Options configure a Store. The zero value is the spec's store.
type Options struct {
	// Max overrides the capacity; 0 means Max (16).
	Max int
	// Now is the clock; nil means time.Now. Tests pass a fake clock to show that idling does
	// not end a session.
	Now func() time.Time
	// OnEnd, when set, is called (outside the store's lock) with each session that leaves the
	// store by eviction or Close, e.g. to update the connected-clients list.
	OnEnd func(s Session, reason EndReason)
}

// EndReason says why a session left the store.
type EndReason int

const (
	// Evicted: the store was full and the session was the least recently used.
	Evicted EndReason = iota + 1
	// Stopped: the store was closed because the server stopped.
	Stopped
	// Revoked: the principal that owned the session lost its rights (its token was revoked).
	Revoked
)

func (r EndReason) String() string {
	switch r {
	case Evicted:
		return "evicted"
	case Stopped:
		return "server stopped"
	case Revoked:
		return "revoked"
	}
	return "unknown"
}

// Store holds the legacy sessions. Create it with New.
type Store struct {
	max   int
	now   func() time.Time
	onEnd func(Session, EndReason)

	mu     sync.Mutex
	lru    *list.List // of *Session; front = most recently used
	byID   map[string]*list.Element
	closed bool
}

// New returns an empty store.
func New(opts Options) *Store {
	st := &Store{max: opts.Max, now: opts.Now, onEnd: opts.OnEnd, lru: list.New(), byID: map[string]*list.Element{}}
	if st.max <= 0 {
		st.max = Max
	}
	if st.now == nil {
		st.now = time.Now
	}
	return st
}

// Create starts a session for principalID and returns it. When the store is full the least
// recently used session is evicted first. After Close it returns ErrClosed.
func (st *Store) Create(principalID, protocolVersion string, client ClientInfo, capabilities json.RawMessage) (Session, error) {
	id, err := newID()
	if err != nil {
		return Session{}, err
	}
	now := st.now()
	s := &Session{
		ID: id, PrincipalID: principalID, ProtocolVersion: protocolVersion, Client: client,
		Capabilities: append(json.RawMessage(nil), capabilities...), Created: now, LastUsed: now,
	}
	var ended []Session
	st.mu.Lock()
	if st.closed {
		st.mu.Unlock()
		return Session{}, ErrClosed
	}
	for st.lru.Len() >= st.max {
		oldest := st.lru.Back()
		old := st.lru.Remove(oldest).(*Session)
		delete(st.byID, old.ID)
		ended = append(ended, old.copy())
	}
	st.byID[id] = st.lru.PushFront(s)
	out := s.copy()
	st.mu.Unlock()
	st.notify(ended, Evicted)
	return out, nil
}

// Get returns the session id owned by principalID and marks it most recently used. An
// unknown, evicted or ended session, or one owned by another principal, is ErrNotFound; a
// lookup under the wrong principal does not touch the session.
func (st *Store) Get(id, principalID string) (Session, error) {
	var out Session
	err := st.Update(id, principalID, func(s *Session) { out = s.copy() })
	return out, err
}

// Update looks the session up as Get does and, when found, calls fn with it under the store's
// lock (fn must be quick and must not call the store). ID and PrincipalID must not change.
func (st *Store) Update(id, principalID string, fn func(*Session)) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return ErrNotFound
	}
	el, ok := st.byID[id]
	if !ok {
		return ErrNotFound
	}
	s := el.Value.(*Session)
	if s.PrincipalID != principalID {
		return ErrNotFound
	}
	s.LastUsed = st.now()
	st.lru.MoveToFront(el)
	if fn != nil {
		id, owner := s.ID, s.PrincipalID
		fn(s)
		s.ID, s.PrincipalID = id, owner
	}
	return nil
}

// Len is the number of sessions in the store.
func (st *Store) Len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.lru.Len()
}

// List returns copies of all sessions, most recently used first.
func (st *Store) List() []Session {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]Session, 0, st.lru.Len())
	for el := st.lru.Front(); el != nil; el = el.Next() {
		out = append(out, el.Value.(*Session).copy())
	}
	return out
}

// EndPrincipal ends every session of principalID (its token was revoked) and returns how many
// ended; their IDs are unknown from then on.
func (st *Store) EndPrincipal(principalID string) int {
	st.mu.Lock()
	var ended []Session
	for el := st.lru.Front(); el != nil; {
		next := el.Next()
		if s := el.Value.(*Session); s.PrincipalID == principalID {
			ended = append(ended, s.copy())
			st.lru.Remove(el)
			delete(st.byID, s.ID)
		}
		el = next
	}
	st.mu.Unlock()
	st.notify(ended, Revoked)
	return len(ended)
}

// Close ends every session and makes Create fail with ErrClosed. It is idempotent.
func (st *Store) Close() {
	st.mu.Lock()
	if st.closed {
		st.mu.Unlock()
		return
	}
	st.closed = true
	ended := make([]Session, 0, st.lru.Len())
	for el := st.lru.Front(); el != nil; el = el.Next() {
		ended = append(ended, el.Value.(*Session).copy())
	}
	st.lru.Init()
	clear(st.byID)
	st.mu.Unlock()
	st.notify(ended, Stopped)
}

func (st *Store) notify(ended []Session, why EndReason) {
	if st.onEnd == nil {
		return
	}
	for _, s := range ended {
		st.onEnd(s, why)
	}
}

func (s *Session) copy() Session {
	c := *s
	c.Capabilities = append(json.RawMessage(nil), s.Capabilities...)
	return c
}

// newID returns 32 random bytes in unpadded base64url: 43 visible ASCII characters.
func newID() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}
