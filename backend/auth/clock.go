package auth

import "time"

// Clock tells the time to everything in this package that measures a window (rate limits,
// lockouts, expiry, the last-used stamp), so tests can move time instead of waiting.
type Clock interface {
	Now() time.Time
}

// SystemClock is the real time.
type SystemClock struct{}

// Now implements Clock.
func (SystemClock) Now() time.Time { return time.Now() }
