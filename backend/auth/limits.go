package auth

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Limits are the per-caller in-flight cap and the failed-authentication lockout. The values
// are the app's choice (SPEC.md B "Limits" leaves them open); docs/architecture.md "MCP access
// control" lists them. The request rate is a setting (mcp.rateLimitPerMinute), see Apply.
type Limits struct {
	// MaxInFlight bounds a caller's requests being answered at the same time (a
	// subscriptions/listen stream counts while it is open); 0 turns the cap off.
	MaxInFlight int
	// FailuresToLock failed authentications under one token prefix within FailureWindow lock
	// that prefix out for LockFor.
	FailuresToLock int
	FailureWindow  time.Duration
	LockFor        time.Duration
	// GlobalFailuresToLock failed authentications under any prefixes within
	// GlobalFailureWindow lock every bearer token out for GlobalLockFor: a caller that draws a
	// new prefix for each guess is slowed down too. 0 turns it off.
	GlobalFailuresToLock int
	GlobalFailureWindow  time.Duration
	GlobalLockFor        time.Duration
}

// DefaultLimits are the values the app runs with.
func DefaultLimits() Limits {
	return Limits{
		MaxInFlight:          8,
		FailuresToLock:       5,
		FailureWindow:        5 * time.Minute,
		LockFor:              5 * time.Minute,
		GlobalFailuresToLock: 30,
		GlobalFailureWindow:  time.Minute,
		GlobalLockFor:        time.Minute,
	}
}

// caller is one principal's rate limiter and in-flight count.
type caller struct {
	lim      *rate.Limiter // nil: no rate limit
	inflight atomic.Int32
}

// callers holds the per-principal state, created on a principal's first request.
type callers struct {
	perMinute   int // 0: no rate limit
	maxInFlight int // 0: no cap
	mu          sync.RWMutex
	m           map[string]*caller
}

func newCallers(perMinute, maxInFlight int) *callers {
	return &callers{perMinute: perMinute, maxInFlight: maxInFlight, m: map[string]*caller{}}
}

// Burst is how many requests a caller may send at once under a rate of perMinute: a quarter
// minute's worth (60 at 240 a minute), at least 1.
func Burst(perMinute int) int { return max(1, perMinute/4) }

func (cs *callers) get(id string) *caller {
	cs.mu.RLock()
	c := cs.m[id]
	cs.mu.RUnlock()
	if c != nil {
		return c
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if c = cs.m[id]; c == nil {
		c = &caller{}
		if cs.perMinute > 0 {
			c.lim = rate.NewLimiter(rate.Limit(float64(cs.perMinute)/60), Burst(cs.perMinute))
		}
		cs.m[id] = c
	}
	return c
}

// forget drops a principal's state (a revoked token).
func (cs *callers) forget(id string) {
	cs.mu.Lock()
	delete(cs.m, id)
	cs.mu.Unlock()
}

// admit takes an in-flight slot and a rate token for the principal at now. It returns the
// slot (nil when there is no cap), or how long to wait and why.
func (cs *callers) admit(id string, now time.Time) (s *slot, wait time.Duration, why string) {
	c := cs.get(id)
	if limit := int32(cs.maxInFlight); limit > 0 {
		if c.inflight.Add(1) > limit {
			c.inflight.Add(-1)
			return nil, time.Second, "too many requests in flight for this caller (at most " + strconv.Itoa(int(limit)) + ")"
		}
	}
	if c.lim != nil {
		r := c.lim.ReserveN(now, 1)
		if d := r.DelayFrom(now); d > 0 {
			r.CancelAt(now)
			if cs.maxInFlight > 0 {
				c.inflight.Add(-1)
			}
			return nil, d, "more than " + strconv.Itoa(cs.perMinute) + " requests a minute from this caller"
		}
	}
	if cs.maxInFlight <= 0 {
		return nil, 0, ""
	}
	return &slot{c: c}, 0, ""
}

// slot is one admitted request's place in its caller's in-flight count. A request waiting
// for a person (an approval dialog) steps out of the count while it waits (park), so a
// client whose writes wait for the person can still list tools and read (issue 25, item 8).
type slot struct {
	c     *caller
	state atomic.Int32 // slotCounted, slotParked or slotReleased
}

const (
	slotCounted int32 = iota
	slotParked
	slotReleased
)

// release gives the slot back once; a parked slot is already out of the count.
func (s *slot) release() {
	if s.state.Swap(slotReleased) == slotCounted {
		s.c.inflight.Add(-1)
	}
}

// park takes the request out of the count until the returned function puts it back (which
// does nothing once the request was released).
func (s *slot) park() (unpark func()) {
	if !s.state.CompareAndSwap(slotCounted, slotParked) {
		return func() {}
	}
	s.c.inflight.Add(-1)
	return func() {
		if s.state.CompareAndSwap(slotParked, slotCounted) {
			s.c.inflight.Add(1)
		}
	}
}

// lockout counts failed authentications and locks a token prefix, or every token, out.
type lockout struct {
	limits Limits
	// until is the latest end of any lock (Unix nanoseconds): while it is past, no lock holds
	// and a request does not take mu.
	until  atomic.Int64
	mu     sync.Mutex
	prefix map[string]*failures
	global failures
}

type failures struct {
	at          []time.Time // failures inside the window, oldest first
	lockedUntil time.Time
}

// maxTrackedPrefixes bounds the lockout's memory; the global lock keeps the count far below.
const maxTrackedPrefixes = 10000

func newLockout(l Limits) *lockout { return &lockout{limits: l, prefix: map[string]*failures{}} }

// locked reports how long the prefix (or every token) is still locked out at now.
func (lo *lockout) locked(prefix string, now time.Time) (time.Duration, bool) {
	if now.UnixNano() >= lo.until.Load() {
		return 0, false
	}
	lo.mu.Lock()
	defer lo.mu.Unlock()
	if d := lo.global.lockedUntil.Sub(now); d > 0 {
		return d, true
	}
	if f := lo.prefix[prefix]; f != nil {
		if d := f.lockedUntil.Sub(now); d > 0 {
			return d, true
		}
	}
	return 0, false
}

// fail records a failed authentication under prefix at now.
func (lo *lockout) fail(prefix string, now time.Time) {
	lo.mu.Lock()
	defer lo.mu.Unlock()
	f := lo.prefix[prefix]
	if f == nil {
		if len(lo.prefix) >= maxTrackedPrefixes {
			lo.pruneLocked(now)
		}
		f = &failures{}
		lo.prefix[prefix] = f
	}
	f.record(now, lo.limits.FailureWindow, lo.limits.FailuresToLock, lo.limits.LockFor)
	if lo.limits.GlobalFailuresToLock > 0 {
		lo.global.record(now, lo.limits.GlobalFailureWindow, lo.limits.GlobalFailuresToLock, lo.limits.GlobalLockFor)
	}
	for _, t := range []time.Time{f.lockedUntil, lo.global.lockedUntil} {
		if n := t.UnixNano(); !t.IsZero() && n > lo.until.Load() {
			lo.until.Store(n) // under mu: no other writer
		}
	}
}

// record adds a failure; reaching n failures inside window locks for lockFor.
func (f *failures) record(now time.Time, window time.Duration, n int, lockFor time.Duration) {
	f.drop(now, window)
	f.at = append(f.at, now)
	if n > 0 && len(f.at) >= n {
		f.lockedUntil = now.Add(lockFor)
		f.at = f.at[:0]
	}
}

// drop forgets failures older than window.
func (f *failures) drop(now time.Time, window time.Duration) {
	i := 0
	for i < len(f.at) && now.Sub(f.at[i]) >= window {
		i++
	}
	f.at = f.at[i:]
}

// pruneLocked forgets prefixes with no recent failure and no lock; if that is not enough it
// starts over (the global lock still holds).
func (lo *lockout) pruneLocked(now time.Time) {
	for k, f := range lo.prefix {
		f.drop(now, lo.limits.FailureWindow)
		if len(f.at) == 0 && !f.lockedUntil.After(now) {
			delete(lo.prefix, k)
		}
	}
	if len(lo.prefix) >= maxTrackedPrefixes {
		lo.prefix = map[string]*failures{}
	}
}
