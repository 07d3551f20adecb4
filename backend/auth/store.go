package auth

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"

	"app/backend/config"
	"app/backend/secrets"
)

// TokensFileName is the tokens' metadata file in the config dir.
const TokensFileName = "mcp-tokens.json"

// ErrNotFound is returned for a name or id no token has.
var ErrNotFound = errors.New("token not found")

// Token is what the app keeps about a token in <config dir>/mcp-tokens.json: never the token
// itself, never its hash (that is in the keyring under mcp-token/<id>).
type Token struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Level string `json:"level"`
	// Connections is the allowlist of connection ids; null means every connection the user
	// lets AI clients see.
	Connections []string   `json:"connections"`
	ExpiresAt   *time.Time `json:"expiresAt,omitempty"`
	CreatedAt   time.Time  `json:"createdAt"`
	// LastUsedAt is written by the running app at most once a minute per token.
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty"`
}

// PrincipalID is the token's principal on the MCP endpoint: "token:<id>", never the token.
func (t Token) PrincipalID() string { return PrincipalPrefix + t.ID }

// PrincipalPrefix starts the principal id of every token.
const PrincipalPrefix = "token:"

// Expired reports whether the token has expired at now.
func (t Token) Expired(now time.Time) bool { return t.ExpiresAt != nil && !now.Before(*t.ExpiresAt) }

type tokensDoc struct {
	Tokens []Token `json:"tokens"`
}

// Store keeps the tokens of one config dir: metadata in a locked, atomically replaced JSON
// file, hashes in the keyring. The CLI and the running app each open one; the app notices the
// CLI's changes by the file's change (Service).
type Store struct {
	file  *config.JSONFile[tokensDoc]
	keys  secrets.Keyring
	clock Clock
}

// NewStore returns the token store of a config dir; keys holds the hashes. opts may seal the
// file (config.Sealed).
func NewStore(dir string, keys secrets.Keyring, opts ...config.FileOption) *Store {
	return &Store{
		file:  config.NewJSONFile(filepath.Join(dir, TokensFileName), func() tokensDoc { return tokensDoc{} }, opts...),
		keys:  keys,
		clock: SystemClock{},
	}
}

// WithClock makes the store read the time from c (when a token is created, whether an expiry
// is in the future): a fixed clock makes expiries the same on every run (the golden files).
func (s *Store) WithClock(c Clock) *Store {
	s.clock = c
	return s
}

// Path is the metadata file.
func (s *Store) Path() string { return s.file.Path() }

// NewToken asks for a token.
type NewToken struct {
	Name  string
	Level string
	// Connections is the allowlist of connection ids (nil for every connection). The caller
	// resolves names to ids; an empty, non-nil list is refused.
	Connections []string
	// ExpiresAt is when the token stops working; nil for never.
	ExpiresAt *time.Time
}

// maxNameLen bounds a token name.
const maxNameLen = 100

// Create makes a token and returns its metadata and the token itself, which is shown once
// and never stored: only its salted hash goes to the keyring. Names are unique, ignoring case.
func (s *Store) Create(ctx context.Context, req NewToken) (Token, string, error) {
	name := strings.TrimSpace(req.Name)
	switch {
	case name == "":
		return Token{}, "", errors.New("create token: a name is required")
	case len(name) > maxNameLen:
		return Token{}, "", fmt.Errorf("create token: the name is longer than %d characters", maxNameLen)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return Token{}, "", errors.New("create token: the name has control characters")
	case !ValidLevel(req.Level):
		return Token{}, "", fmt.Errorf("create token: level %q is not one of %s", req.Level, strings.Join(Levels(), ", "))
	case req.Connections != nil && len(req.Connections) == 0:
		return Token{}, "", errors.New("create token: an allowlist needs at least one connection (leave it out for every connection)")
	}
	now := s.clock.Now().UTC().Truncate(time.Second)
	if req.ExpiresAt != nil && !req.ExpiresAt.After(now) {
		return Token{}, "", errors.New("create token: the expiry is not in the future")
	}
	secret, err := newSecret()
	if err != nil {
		return Token{}, "", err
	}
	d, err := newDigest(secret)
	if err != nil {
		return Token{}, "", err
	}
	t := Token{ID: uuid.NewString(), Name: name, Level: req.Level, CreatedAt: now}
	if req.Connections != nil {
		t.Connections = slices.Compact(slices.Sorted(slices.Values(req.Connections)))
	}
	if req.ExpiresAt != nil {
		e := req.ExpiresAt.UTC()
		t.ExpiresAt = &e
	}
	stored := false
	err = s.file.Update(ctx, func(doc *tokensDoc) error {
		for _, o := range doc.Tokens {
			if strings.EqualFold(o.Name, name) {
				return fmt.Errorf("create token: a token named %q exists (revoke it first, or choose another name)", o.Name)
			}
		}
		// The hash is in the keyring before the file names the token, so a running app that
		// sees the new id can always check it.
		if err := s.keys.Set(keyringKey(t.ID), d.encode()); err != nil {
			return fmt.Errorf("create token: %w", err)
		}
		stored = true
		doc.Tokens = append(doc.Tokens, t)
		return nil
	})
	if err != nil {
		if stored {
			_ = s.keys.Delete(keyringKey(t.ID))
		}
		return Token{}, "", err
	}
	return t, secret, nil
}

// List returns the tokens in creation order.
func (s *Store) List(ctx context.Context) ([]Token, error) {
	doc, err := s.file.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	return doc.Tokens, nil
}

// Get returns the token with this id, or else this name (ignoring case).
func (s *Store) Get(ctx context.Context, idOrName string) (Token, error) {
	list, err := s.List(ctx)
	if err != nil {
		return Token{}, err
	}
	if i := find(list, idOrName); i >= 0 {
		return list[i], nil
	}
	return Token{}, fmt.Errorf("%w: %q", ErrNotFound, idOrName)
}

func find(list []Token, idOrName string) int {
	if i := slices.IndexFunc(list, func(t Token) bool { return t.ID == idOrName }); i >= 0 {
		return i
	}
	return slices.IndexFunc(list, func(t Token) bool { return strings.EqualFold(t.Name, idOrName) })
}

// Match returns the stored token whose secret is secret (false when none is), comparing the
// salted hashes the keyring holds: `app client remove` finds the token a client's config
// file held, to revoke it with the file's entry.
func (s *Store) Match(ctx context.Context, secret string) (Token, bool, error) {
	if !wellFormed(secret) {
		return Token{}, false, nil
	}
	list, err := s.List(ctx)
	if err != nil {
		return Token{}, false, err
	}
	for _, t := range list {
		d, err := s.digest(t.ID)
		if err != nil {
			continue // a token whose hash is gone matches nothing
		}
		if d.matches(secret) {
			return t, true, nil
		}
	}
	return Token{}, false, nil
}

// Revoke removes the token with this id or name: first from the file (a running app refuses
// it from the moment it notices), then its hash from the keyring.
func (s *Store) Revoke(ctx context.Context, idOrName string) (Token, error) {
	var gone Token
	err := s.file.Update(ctx, func(doc *tokensDoc) error {
		i := find(doc.Tokens, idOrName)
		if i < 0 {
			return fmt.Errorf("revoke token: %w: %q", ErrNotFound, idOrName)
		}
		gone = doc.Tokens[i]
		doc.Tokens = slices.Delete(doc.Tokens, i, i+1)
		return nil
	})
	if err != nil {
		return Token{}, err
	}
	if err := s.keys.Delete(keyringKey(gone.ID)); err != nil {
		return gone, fmt.Errorf("token %q is revoked, but its hash could not be removed from the keyring: %w", gone.Name, err)
	}
	return gone, nil
}

// touch records when tokens were last used; ids no longer in the file are skipped.
func (s *Store) touch(ctx context.Context, used map[string]time.Time) error {
	return s.file.Update(ctx, func(doc *tokensDoc) error {
		for i := range doc.Tokens {
			if at, ok := used[doc.Tokens[i].ID]; ok {
				at = at.UTC().Truncate(time.Second)
				doc.Tokens[i].LastUsedAt = &at
			}
		}
		return nil
	})
}

// digest reads a token's hash from the keyring.
func (s *Store) digest(id string) (digest, error) {
	v, err := s.keys.Get(keyringKey(id))
	if err != nil {
		return digest{}, err
	}
	return parseDigest(v)
}

// stamp is the tokens file's version (its seal's too).
func (s *Store) stamp() config.Stamp { return s.file.Stamp() }

// ParseExpiry reads an --expires value relative to now: "" or "never" for no expiry; a
// duration in days ("30d"), weeks ("2w"), hours or minutes ("12h", "90m", any Go duration);
// or a date ("2026-12-31", midnight UTC) or an RFC 3339 time. The result is in the future.
func ParseExpiry(s string, now time.Time) (*time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "never") {
		return nil, nil
	}
	var at time.Time
	if n, unit := s[:len(s)-1], s[len(s)-1]; unit == 'd' || unit == 'w' {
		k, err := strconv.Atoi(n)
		if err != nil || k <= 0 || k > 100*365 {
			return nil, fmt.Errorf("expiry %q: give a whole number of days or weeks (up to 100 years), e.g. 30d or 2w", s)
		}
		day := 24 * time.Hour
		if unit == 'w' {
			day *= 7
		}
		at = now.Add(time.Duration(k) * day)
	} else if d, err := time.ParseDuration(s); err == nil {
		at = now.Add(d)
	} else if t, err := time.Parse("2006-01-02", s); err == nil {
		at = t
	} else if t, err := time.Parse(time.RFC3339, s); err == nil {
		at = t
	} else {
		return nil, fmt.Errorf("expiry %q: use a duration (30d, 2w, 12h), a date (2026-12-31) or an RFC 3339 time, or never", s)
	}
	at = at.UTC().Truncate(time.Second)
	if !at.After(now) {
		return nil, fmt.Errorf("expiry %q is not in the future", s)
	}
	return &at, nil
}

// FreeName is base, or base with " #2", " #3"... when a token in list already has that name
// (names are unique ignoring case): the name a token made for a client gets by default.
func FreeName(list []Token, base string) string {
	taken := map[string]bool{}
	for _, t := range list {
		taken[strings.ToLower(t.Name)] = true
	}
	name := base
	for n := 2; taken[strings.ToLower(name)]; n++ {
		name = fmt.Sprintf("%s #%d", base, n)
	}
	return name
}
