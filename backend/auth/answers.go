package auth

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"app/backend/mcp"
)

// The WWW-Authenticate challenges of a 401, exactly as SPEC.md B "Authentication" 4 writes
// them, in one place. (The 403 insufficient_scope challenge is the protocol core's: it is the
// scope check's, backend/mcp/errors.go.)
const (
	// ChallengeMissing answers a request without a bearer token.
	ChallengeMissing = `Bearer realm="App"`
	// ChallengeInvalid answers an unknown or revoked token (and one that is not a token).
	ChallengeInvalid = `Bearer error="invalid_token"`
	// ChallengeExpired answers a token past its expiry.
	ChallengeExpired = `Bearer error="invalid_token", error_description="token expired"`
)

func withChallenge(e *mcp.Error, challenge string) *mcp.Error {
	e.Header = http.Header{"Www-Authenticate": {challenge}}
	return e
}

// errMissingToken: 401 -33009, Bearer realm="App".
func errMissingToken() *mcp.Error {
	return withChallenge(mcp.NewError(mcp.CodeUnauthenticated,
		"unauthenticated: send Authorization: Bearer <token> (the user creates one in the app's settings or with `app token create`)", nil),
		ChallengeMissing)
}

// errInvalidToken: 401 -33009, Bearer error="invalid_token". The same answer for a token
// that never existed, one that was revoked and a string that is not a token.
func errInvalidToken() *mcp.Error {
	return withChallenge(mcp.NewError(mcp.CodeUnauthenticated, "unauthenticated: the token is unknown or revoked", nil), ChallengeInvalid)
}

// errExpiredToken: 401 -33008, with error_description="token expired".
func errExpiredToken() *mcp.Error {
	return withChallenge(mcp.NewError(mcp.CodeTokenExpired, "token expired", nil), ChallengeExpired)
}

// errExternalAccessOff: 403 -33007 for every call while mcp.externalAccess is false.
func errExternalAccessOff() *mcp.Error {
	return mcp.NewError(mcp.CodeForbidden, "forbidden: the user has turned off external access to the app's connections (mcp.externalAccess)", nil)
}

// errRateLimited: 429 -33010 with Retry-After in whole seconds (at least 1).
func errRateLimited(why string, wait time.Duration) *mcp.Error {
	secs := max(1, int(math.Ceil(wait.Seconds())))
	e := mcp.NewError(mcp.CodeRateLimited, "rate limited: "+why, map[string]any{"retryAfterSeconds": secs})
	e.Header = http.Header{"Retry-After": {strconv.Itoa(secs)}}
	return e
}

// errKeyringUnavailable: 503 -33000 when a token's hash cannot be read (the keyring is
// locked or missing); the reason goes to the app log, not to the caller.
func errKeyringUnavailable() *mcp.Error {
	return mcp.NewError(mcp.CodeServiceUnavailable, "service unavailable: the app cannot read its keyring to check the token", nil)
}

// ConnectionNotAllowed is the 403 -33007 answer for a connection outside the caller's
// allowlist (SPEC.md B "Authentication" 3). Listings leave such connections out instead.
func ConnectionNotAllowed() *mcp.Error {
	return mcp.NewError(mcp.CodeForbidden, "forbidden: this token may not use that connection", nil)
}

// MayUse reports whether the request in ctx may reach the connection: its principal's
// allowlist admits it (mcp.Principal.MayUse). Outside a request nothing is allowed.
func MayUse(ctx context.Context, connectionID string) bool {
	c := mcp.CallFrom(ctx)
	return c != nil && c.Principal.MayUse(connectionID)
}

// Allowed keeps the items of list whose connection the request in ctx may reach (MayUse), in
// order: listings and completions leave the others out.
func Allowed[T any](ctx context.Context, list []T, connectionID func(T) string) []T {
	c := mcp.CallFrom(ctx)
	out := make([]T, 0, len(list))
	for _, v := range list {
		if c != nil && c.Principal.MayUse(connectionID(v)) {
			out = append(out, v)
		}
	}
	return out
}
