package auth

import (
	"context"
	"crypto/sha256"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/config"
	"app/backend/mcp"
	"app/backend/secrets"
)

// Options configure a Service.
type Options struct {
	// Store holds the tokens (required).
	Store *Store
	// Log receives revocations and keyring trouble; never a token.
	Log *logrus.Logger
	// Clock measures the windows; nil is the system clock.
	Clock Clock
	// Limits are the in-flight cap and the lockout; nil is DefaultLimits(). The request rate
	// comes from the settings (Apply).
	Limits *Limits
	// PollEvery is how often the tokens file is checked for a change made by another process
	// (the CLI); 0 is once a second.
	PollEvery time.Duration
	// Revoke is told the principal id of every token that stops existing while the service
	// runs, so that its requests in flight end with -33002 and its sessions close (core: the
	// running server's RevokePrincipal). It must not block.
	Revoke func(principalID string)
}

// UsageWriteEvery is how often, at most, a token's lastUsedAt is written to the file.
const UsageWriteEvery = time.Minute

// Service decides the principal of every MCP request (it is the server's mcp.Authenticator):
// the settings (mcp.requireAuth, mcp.externalAccess, read per request), the tokens, the
// per-caller limits and the failed-authentication lockout. One per Core; it outlives server
// restarts.
type Service struct {
	store     *Store
	log       *logrus.Logger
	clock     Clock
	limits    Limits
	pollEvery time.Duration
	revoke    func(string)

	settings atomic.Pointer[settingsSnapshot]
	state    atomic.Pointer[tokenState]
	reloadMu sync.Mutex
	applyMu  sync.Mutex
	callers  atomic.Pointer[callers] // replaced when the rate setting changes
	lock     *lockout

	usedMu  sync.Mutex           // guards written; requests never take it
	written map[string]usageMark // per token id, what flushUsage last wrote

	lifeMu sync.Mutex
	stop   context.CancelFunc
	done   chan struct{}

	// bridge holds the bridge tokens this process drew (bridge.go).
	bridge bridgeTokens
}

// settingsSnapshot is what Authenticate reads of the settings, swapped whole by Apply.
type settingsSnapshot struct {
	requireAuth    bool
	externalAccess bool
}

// tokenState is the tokens as last read, with their hashes, swapped whole by reload.
type tokenState struct {
	loaded  bool
	stamp   config.Stamp // the file as it was read
	entries []*entry
	// keyErr is set when the keyring could not be read for some token: an unknown token is
	// then answered 503, and the next unknown token reads the keyring again.
	keyErr error
	// seen maps SHA-256(token) of tokens already matched against this state to their entry,
	// so a caller's next request costs one hash, not one per stored token. In memory only;
	// a new state (every reload) starts empty, so a revoked token is never found here.
	seen sync.Map
}

type entry struct {
	tok       Token
	digest    digest
	principal mcp.Principal
	// lastUse is the token's last use (Unix nanoseconds), shared by the entries of one token
	// across reloads; requests store it without a lock, the poll writes it to the file.
	lastUse *atomic.Int64
}

// usageMark is what flushUsage last wrote for a token: when, and which use.
type usageMark struct {
	at  time.Time
	use int64
}

// NewService builds the service. Until Apply it runs with the settings of a new config dir
// (authentication required, external access allowed, the default rate).
func NewService(o Options) *Service {
	s := &Service{
		store:     o.Store,
		log:       o.Log,
		clock:     o.Clock,
		limits:    DefaultLimits(),
		pollEvery: o.PollEvery,
		revoke:    o.Revoke,
		written:   map[string]usageMark{},
	}
	if s.log == nil {
		s.log = logrus.New()
	}
	if s.clock == nil {
		s.clock = SystemClock{}
	}
	if o.Limits != nil {
		s.limits = *o.Limits
	}
	if s.pollEvery <= 0 {
		s.pollEvery = time.Second
	}
	if s.revoke == nil {
		s.revoke = func(string) {}
	}
	s.lock = newLockout(s.limits)
	s.state.Store(&tokenState{})
	s.Apply(config.DefaultSettings().MCP)
	return s
}

// Store is the token store the service reads.
func (s *Service) Store() *Store { return s.store }

// Apply takes the MCP settings the service reads per request (mcp.requireAuth,
// mcp.externalAccess, mcp.rateLimitPerMinute); the next request sees them. A new rate starts
// every caller with a full burst.
func (s *Service) Apply(m config.MCPSettings) {
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	if cs := s.callers.Load(); cs == nil || cs.perMinute != m.RateLimitPerMinute {
		s.callers.Store(newCallers(m.RateLimitPerMinute, s.limits.MaxInFlight))
	}
	s.settings.Store(&settingsSnapshot{requireAuth: m.RequireAuth, externalAccess: m.ExternalAccess})
}

// Authenticate implements mcp.Authenticator, in this order: external access (403 -33007);
// with authentication off, the anonymous read-only principal; the bearer token (401 -33009
// missing, unknown or revoked; 401 -33008 expired), refused without a check while its prefix
// is locked out (429 -33010); then the caller's in-flight cap and rate (429 -33010).
func (s *Service) Authenticate(r *http.Request) (mcp.Principal, error) {
	set := s.settings.Load()
	if !set.externalAccess {
		return mcp.Principal{}, errExternalAccessOff()
	}
	now := s.clock.Now()
	if !set.requireAuth {
		return s.admit(mcp.AnonymousPrincipal(), now)
	}
	secret, ok := bearer(r.Header)
	if !ok {
		return mcp.Principal{}, errMissingToken()
	}
	key := lockoutKey(secret)
	if wait, locked := s.lock.locked(key, now); locked {
		return mcp.Principal{}, errRateLimited("too many failed authentications; try again later", wait)
	}
	if found, expired := s.matchBridge(secret, now); found {
		if expired {
			return mcp.Principal{}, errExpiredToken()
		}
		instance, err := s.bridgeInstance(r.Header.Get(config.BridgeInstanceHeader), now)
		if err != nil {
			return mcp.Principal{}, errRateLimited(err.Error()+"; try again later", time.Minute)
		}
		return s.admit(bridgePrincipal(instance), now)
	}
	st := s.state.Load()
	e := st.match(secret)
	if e == nil && s.changed(st) {
		// A token made a moment ago by another process: read the file once, now, rather
		// than refuse it until the next poll.
		st = s.reload(context.Background())
		e = st.match(secret)
	}
	if e == nil {
		if st.keyErr != nil {
			return mcp.Principal{}, errKeyringUnavailable()
		}
		s.lock.fail(key, now)
		return mcp.Principal{}, errInvalidToken()
	}
	if e.tok.Expired(now) {
		return mcp.Principal{}, errExpiredToken()
	}
	p, err := s.admit(e.principal, now)
	if err == nil {
		e.lastUse.Store(now.UnixNano())
	}
	return p, err
}

// admit applies the caller's limits and gives the principal its Release and Park.
func (s *Service) admit(p mcp.Principal, now time.Time) (mcp.Principal, error) {
	slot, wait, why := s.callers.Load().admit(p.ID, now)
	if why != "" {
		return mcp.Principal{}, errRateLimited(why, wait)
	}
	if slot != nil {
		p.Release, p.Park = slot.release, slot.park
	}
	return p, nil
}

// bearer reads "Authorization: Bearer <token>" (the scheme in any case).
func bearer(h http.Header) (string, bool) {
	v := h.Get("Authorization")
	const scheme = "bearer "
	if len(v) < len(scheme) || !strings.EqualFold(v[:len(scheme)], scheme) {
		return "", false
	}
	tok := strings.TrimSpace(v[len(scheme):])
	return tok, tok != ""
}

// match finds the token whose hash the presented secret has: a token seen before by its
// SHA-256, otherwise by comparing every stored salted hash in constant time.
func (st *tokenState) match(secret string) *entry {
	if !wellFormed(secret) {
		return nil
	}
	key := sha256.Sum256([]byte(secret))
	if e, ok := st.seen.Load(key); ok {
		return e.(*entry)
	}
	var found *entry
	for _, e := range st.entries {
		if e.digest.matches(secret) && found == nil {
			found = e
		}
	}
	if found != nil {
		st.seen.Store(key, found)
	}
	return found
}

// changed reports whether the tokens file differs from the one st was read from (another
// inode, time or size: every write replaces the file), or st needs another try.
func (s *Service) changed(st *tokenState) bool {
	if !st.loaded || st.keyErr != nil {
		return true
	}
	return !s.store.stamp().Same(st.stamp)
}

// Refresh reads the tokens file again when it changed, and revokes the tokens that are gone
// from it: their requests in flight end with -33002 and their sessions close.
func (s *Service) Refresh(ctx context.Context) {
	if s.changed(s.state.Load()) {
		s.reload(ctx)
	}
}

// reload reads the file and the hashes of new tokens, swaps the state in, and revokes the
// tokens that disappeared. Concurrent callers wait for one read.
func (s *Service) reload(ctx context.Context) *tokenState {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	old := s.state.Load()
	if !s.changed(old) {
		return old // someone else just read it
	}
	stamp := s.store.stamp()
	list, err := s.store.List(ctx)
	if err != nil {
		if old.loaded && old.keyErr == nil && old.stamp.Same(stamp) {
			return old
		}
		s.log.WithError(err).Error("MCP tokens: the tokens file cannot be read; keeping the tokens read before")
		kept := &tokenState{loaded: true, stamp: stamp, entries: old.entries, keyErr: old.keyErr}
		s.state.Store(kept)
		return kept
	}
	byID := make(map[string]*entry, len(old.entries))
	for _, e := range old.entries {
		byID[e.tok.ID] = e
	}
	next := &tokenState{loaded: true, stamp: stamp, entries: make([]*entry, 0, len(list))}
	for _, t := range list {
		d, ok := digest{}, false
		if prev := byID[t.ID]; prev != nil {
			d, ok = prev.digest, true
		} else {
			var err error
			d, err = s.store.digest(t.ID)
			switch {
			case err == nil:
				ok = true
			case errors.Is(err, secrets.ErrNotFound), errors.Is(err, errBadDigest):
				s.log.WithField("token", t.Name).Warn("MCP tokens: the token has no hash in the keyring and cannot be used; revoke it and create another")
			default:
				s.log.WithError(err).WithField("token", t.Name).Error("MCP tokens: the keyring cannot be read")
				next.keyErr = err
			}
		}
		if ok {
			use := new(atomic.Int64)
			if prev := byID[t.ID]; prev != nil {
				use = prev.lastUse
			}
			next.entries = append(next.entries, &entry{tok: t, digest: d, principal: principalOf(t), lastUse: use})
		}
	}
	s.state.Store(next)
	for _, e := range old.entries {
		if !slices.ContainsFunc(list, func(t Token) bool { return t.ID == e.tok.ID }) {
			s.gone(e.tok)
		}
	}
	return next
}

// gone ends what a revoked token still holds.
func (s *Service) gone(t Token) {
	s.callers.Load().forget(t.PrincipalID())
	s.usedMu.Lock()
	delete(s.written, t.ID)
	s.usedMu.Unlock()
	s.log.WithField("token", t.Name).Info("MCP token revoked: its requests in flight are cancelled and its sessions closed")
	s.revoke(t.PrincipalID())
}

// principalOf is the principal a token's requests act for.
func principalOf(t Token) mcp.Principal {
	p := mcp.Principal{ID: t.PrincipalID(), Scopes: Scopes(t.Level), Name: t.Name, Level: t.Level}
	if t.Connections != nil {
		p.Connections = slices.Clone(t.Connections)
	}
	return p
}

// Revoke revokes a token by id or name and ends its requests in flight and its sessions at
// once (the in-process path: the Settings panel).
func (s *Service) Revoke(ctx context.Context, idOrName string) (Token, error) {
	t, err := s.store.Revoke(ctx, idOrName)
	if t.ID != "" {
		s.Refresh(ctx)
	}
	return t, err
}

// flushUsage writes lastUsedAt for the tokens used since their last write, skipping those
// written less than UsageWriteEvery ago unless all is set (a clean stop).
func (s *Service) flushUsage(ctx context.Context, all bool) {
	now := s.clock.Now()
	s.usedMu.Lock()
	defer s.usedMu.Unlock()
	batch := map[string]time.Time{}
	uses := map[string]int64{}
	for _, e := range s.state.Load().entries {
		use, last := e.lastUse.Load(), s.written[e.tok.ID]
		if use == 0 || use == last.use || (!all && !last.at.IsZero() && now.Sub(last.at) < UsageWriteEvery) {
			continue
		}
		batch[e.tok.ID], uses[e.tok.ID] = time.Unix(0, use), use
	}
	if len(batch) == 0 {
		return
	}
	if err := s.store.touch(ctx, batch); err != nil {
		s.log.WithError(err).Warn("MCP tokens: cannot record when tokens were last used")
		return
	}
	for id, use := range uses {
		s.written[id] = usageMark{at: now, use: use}
	}
}

// Start reads the tokens and begins polling the tokens file (PollEvery): a token revoked by
// another process is refused, and its requests in flight cancelled, within one poll; last-use
// times are written. A second Start does nothing.
func (s *Service) Start() {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	if s.stop != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop, s.done = cancel, make(chan struct{})
	s.Refresh(ctx)
	go s.poll(ctx, s.done)
}

// Stop ends the poll and writes the pending last-use times; safe when not started.
func (s *Service) Stop() {
	s.lifeMu.Lock()
	stop, done := s.stop, s.done
	s.stop, s.done = nil, nil
	s.lifeMu.Unlock()
	if stop == nil {
		return
	}
	stop()
	<-done
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.flushUsage(ctx, true)
}

func (s *Service) poll(ctx context.Context, done chan struct{}) {
	defer close(done)
	tick := time.NewTicker(s.pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		s.Refresh(ctx)
		s.flushUsage(ctx, false)
	}
}
