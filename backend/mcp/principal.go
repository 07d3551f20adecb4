package mcp

import (
	"net/http"
	"slices"
)

// Scope names the spec defines for the endpoint (SPEC.md B "Authentication" 2).
// Tool-specific scopes are added by the tokens issue.
const (
	ScopeToolsRead     = "tools:read"
	ScopeResourcesRead = "resources:read"
)

// Principal is who a request acts for: a token, or the anonymous loopback
// caller. Requests, sessions and cancellations belong to a principal.
type Principal struct {
	// ID is stable for the token (never the token itself); "anonymous" for
	// the loopback principal.
	ID string
	// Scopes granted to the principal.
	Scopes []string
	// Anonymous is true for the loopback principal that exists while
	// authentication is off.
	Anonymous bool
	// Connections, when not nil, is the allowlist of connection ids the
	// principal may reach (a token limited to some connections); nil means
	// every connection the user lets AI clients see.
	Connections []string
	// Name and Level describe the principal to people (the activity log,
	// approval dialogs): e.g. a token's name and its access level.
	Name  string
	Level string
	// Release, when set, is called once after the request this principal
	// was authenticated for has been answered (an Authenticator uses it to
	// bound requests in flight per caller).
	Release func()
	// Park, when set, takes the request out of its caller's in-flight count while it waits
	// for a person (an approval dialog) and returns the function that puts it back: waiting
	// for a person is not load, and must not shut the caller out of reads meanwhile.
	Park func() (unpark func())
}

// MayUse reports whether the principal's allowlist admits the connection.
func (p Principal) MayUse(connectionID string) bool {
	return p.Connections == nil || slices.Contains(p.Connections, connectionID)
}

// HasScope reports whether p was granted scope.
func (p Principal) HasScope(scope string) bool { return slices.Contains(p.Scopes, scope) }

// missingScopes returns the scopes of need that p lacks, in order.
func (p Principal) missingScopes(need []string) []string {
	var miss []string
	for _, s := range need {
		if !p.HasScope(s) {
			miss = append(miss, s)
		}
	}
	return miss
}

// AnonymousPrincipal is the loopback principal used while authentication is
// off: read-only (tools:read, resources:read).
func AnonymousPrincipal() Principal {
	return Principal{ID: "anonymous", Scopes: []string{ScopeToolsRead, ScopeResourcesRead}, Anonymous: true}
}

// Authenticator decides the principal of an HTTP request. The transport calls
// it once per request after the Host and Origin checks and before the body is
// decoded. On failure it returns a *Error (-33008, -33009, -33010, ...) whose
// Header carries the WWW-Authenticate challenge (or Retry-After) the spec
// requires; the transport writes status, headers and body from it.
// Implementations must compare secrets in constant time and never put them in
// error text.
type Authenticator interface {
	Authenticate(r *http.Request) (Principal, error)
}

// AuthenticatorFunc adapts a function to Authenticator.
type AuthenticatorFunc func(r *http.Request) (Principal, error)

// Authenticate implements Authenticator.
func (f AuthenticatorFunc) Authenticate(r *http.Request) (Principal, error) { return f(r) }

// anonymousAuth is the default Authenticator: every loopback caller is the
// anonymous read-only principal.
type anonymousAuth struct{}

func (anonymousAuth) Authenticate(*http.Request) (Principal, error) { return AnonymousPrincipal(), nil }
