// Package connections keeps the user's saved connections: their settings in
// <config dir>/connections.json and their API keys in the keyring, never in the file.
package connections

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"app/backend/config"
	"app/backend/driver"
	"app/backend/secrets"
)

// Types of database a connection can reach.
const (
	TypeWeaviate = "weaviate"
)

// External access levels: how far AI clients on the MCP endpoint may use a connection.
// The effective right is the lower of this and the caller's token level.
const (
	AccessBlocked   = "blocked"   // invisible to AI clients
	AccessReadOnly  = "readOnly"  // reads only
	AccessReadWrite = "readWrite" // writes too, each approved by the user
)

// DefaultExternalAccess is what a new connection gets. Writes still need the user's
// approval for every statement, so read-write is useful without being unsafe.
const DefaultExternalAccess = AccessReadWrite

// ErrNotFound is returned for an ID or name that no saved connection has.
var ErrNotFound = errors.New("connection not found")

// Connection is one saved connection. Settings.APIKey is always empty here (it is tagged
// json:"-" and lives in the keyring); Resolve fills it in for a driver.
type Connection struct {
	ID             string          `json:"id"`
	Name           string          `json:"name"`
	Type           string          `json:"type"`
	Settings       driver.Settings `json:"settings"`
	ExternalAccess string          `json:"externalAccess"`
	AIPolicy       string          `json:"aiPolicy"`
	CreatedAt      time.Time       `json:"createdAt"`
}

// Store is the saved connections of one config dir.
type Store struct {
	file *config.JSONFile[[]Connection]
	keys secrets.Keyring
}

// NewStore returns the store of a config dir; keys holds the API keys. An unreadable
// connections.json is kept as connections.json.bak and the list starts empty
// (config.RecoverCorrupt), so that the app still starts; opts may add config.LogTo.
func NewStore(dir string, keys secrets.Keyring, opts ...config.FileOption) *Store {
	opts = append([]config.FileOption{config.RecoverCorrupt()}, opts...)
	return &Store{
		file: config.NewJSONFile(filepath.Join(dir, "connections.json"), func() []Connection { return nil }, opts...),
		keys: keys,
	}
}

// Problem is why connections.json could not be read when this store last replaced it by an
// empty list (naming the file and where its bytes were kept), or nil.
func (s *Store) Problem() error { return s.file.Problem() }

func apiKeyRef(id string) string { return "connection/" + id + "/apiKey" }

// List returns the saved connections in the order they were added. A connection saved
// without an external access or AI policy reads as the default.
func (s *Store) List(ctx context.Context) ([]Connection, error) {
	list, err := s.file.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("list connections: %w", err)
	}
	for i := range list {
		withDefaults(&list[i])
	}
	return list, nil
}

// withDefaults fills in what a file written by an older version leaves out.
func withDefaults(c *Connection) {
	if c.ExternalAccess == "" {
		c.ExternalAccess = DefaultExternalAccess
	}
	if c.AIPolicy == "" {
		c.AIPolicy = DefaultAIPolicy
	}
}

// Get returns the connection with this ID, or else with this name (case-insensitive).
func (s *Store) Get(ctx context.Context, idOrName string) (Connection, error) {
	list, err := s.List(ctx)
	if err != nil {
		return Connection{}, err
	}
	for _, c := range list {
		if c.ID == idOrName {
			return c, nil
		}
	}
	for _, c := range list {
		if strings.EqualFold(c.Name, idOrName) {
			return c, nil
		}
	}
	return Connection{}, fmt.Errorf("%w: %q", ErrNotFound, idOrName)
}

// Add validates and saves a new connection, with its API key in the keyring.
func (s *Store) Add(ctx context.Context, c Connection, apiKey string) (Connection, error) {
	if err := prepare(&c, apiKey); err != nil {
		return Connection{}, fmt.Errorf("add connection: %w", err)
	}
	c.ID = uuid.NewString()
	c.CreatedAt = time.Now().UTC().Truncate(time.Second)
	if c.Settings.AuthMethod == driver.AuthAPIKey {
		if err := s.keys.Set(apiKeyRef(c.ID), apiKey); err != nil {
			return Connection{}, fmt.Errorf("add connection: %w", err)
		}
	}
	err := s.file.Update(ctx, func(list *[]Connection) error {
		if err := uniqueName(*list, c); err != nil {
			return err
		}
		*list = append(*list, c)
		return nil
	})
	if err != nil {
		if c.Settings.AuthMethod == driver.AuthAPIKey {
			_ = s.keys.Delete(apiKeyRef(c.ID))
		}
		return Connection{}, fmt.Errorf("add connection: %w", err)
	}
	return c, nil
}

// prepare fills in the defaults of a connection and validates it, the same way for Add and
// Update. apiKey is the key the connection will have (for Update, the saved one's presence).
func prepare(c *Connection, apiKey string) error {
	c.Name = strings.TrimSpace(c.Name)
	if c.Name == "" {
		return errors.New("a name is required")
	}
	if c.Type == "" {
		c.Type = TypeWeaviate
	}
	if c.Type != TypeWeaviate {
		return fmt.Errorf("type %q is not supported (supported: %s)", c.Type, TypeWeaviate)
	}
	withDefaults(c)
	if err := validAccess(c.ExternalAccess); err != nil {
		return err
	}
	if err := validPolicy(c.AIPolicy); err != nil {
		return err
	}
	c.Settings = c.Settings.Normalized()
	c.Settings.APIKey = ""
	withKey := c.Settings
	withKey.APIKey = apiKey
	if err := withKey.Validate(); err != nil {
		return err
	}
	if apiKey != "" && c.Settings.AuthMethod != driver.AuthAPIKey {
		return fmt.Errorf("an API key was given but Auth Method is %q: choose %q", c.Settings.AuthMethod, driver.AuthAPIKey)
	}
	return nil
}

// uniqueName refuses a connection whose name another saved connection has.
func uniqueName(list []Connection, c Connection) error {
	for _, o := range list {
		if o.ID != c.ID && strings.EqualFold(o.Name, c.Name) {
			return fmt.Errorf("a connection named %q already exists", o.Name)
		}
	}
	return nil
}

// Change is an edit of a saved connection (Store.Update).
type Change struct {
	// Apply edits a copy of the saved connection. ID and CreatedAt cannot change; the
	// result is validated as Add validates a new connection.
	Apply func(*Connection)
	// APIKey, when not nil, replaces the connection's key in the keyring; nil keeps the
	// saved key.
	APIKey *string
	// Check, when not nil, sees the connection before and after the edit, under the file's
	// lock, and may refuse it: nothing is saved then. The CLI refuses an unconfirmed raise of
	// AI rights (RaisedRights) here, so a concurrent change cannot slip one through.
	Check func(before, after Connection) error
}

// Update edits a saved connection (by ID, or else by name) and returns it before and after.
// The API key is kept unless a new one is given; switching Auth Method to None deletes it.
func (s *Store) Update(ctx context.Context, idOrName string, ch Change) (before, after Connection, err error) {
	target, err := s.Get(ctx, idOrName)
	if err != nil {
		return Connection{}, Connection{}, err
	}
	var keySet bool
	var oldKey string
	var hadOldKey bool
	err = s.file.Update(ctx, func(list *[]Connection) error {
		i := indexOf(*list, target.ID)
		if i < 0 {
			return fmt.Errorf("%w: %q", ErrNotFound, idOrName)
		}
		before = (*list)[i]
		withDefaults(&before)
		after = before
		if ch.Apply != nil {
			ch.Apply(&after)
		}
		after.ID, after.CreatedAt = before.ID, before.CreatedAt
		key := ""
		switch {
		case ch.APIKey != nil:
			key = *ch.APIKey
			if key == "" {
				return errors.New("the new API key is empty")
			}
		case before.Settings.AuthMethod == driver.AuthAPIKey && after.Settings.Normalized().AuthMethod == driver.AuthAPIKey:
			// The saved key stays; only its presence matters to validation, never its value.
			key = "saved key"
		}
		if err := prepare(&after, key); err != nil {
			return err
		}
		if err := uniqueName(*list, after); err != nil {
			return err
		}
		if ch.Check != nil {
			if err := ch.Check(before, after); err != nil {
				return err
			}
		}
		if ch.APIKey != nil {
			if before.Settings.AuthMethod == driver.AuthAPIKey {
				k, err := s.keys.Get(apiKeyRef(before.ID))
				oldKey, hadOldKey = k, err == nil
			}
			if err := s.keys.Set(apiKeyRef(after.ID), *ch.APIKey); err != nil {
				return err
			}
			keySet = true
		}
		(*list)[i] = after
		return nil
	})
	if err != nil {
		if keySet { // the file kept the old connection: put its key back
			if hadOldKey {
				_ = s.keys.Set(apiKeyRef(target.ID), oldKey)
			} else {
				_ = s.keys.Delete(apiKeyRef(target.ID))
			}
		}
		return Connection{}, Connection{}, fmt.Errorf("edit connection: %w", err)
	}
	if before.Settings.AuthMethod == driver.AuthAPIKey && after.Settings.AuthMethod != driver.AuthAPIKey {
		if err := s.keys.Delete(apiKeyRef(after.ID)); err != nil && !errors.Is(err, secrets.ErrNotFound) {
			return before, after, fmt.Errorf("edit connection: the connection was saved, but its old API key could not be deleted: %w", err)
		}
	}
	return before, after, nil
}

func indexOf(list []Connection, id string) int {
	for i, c := range list {
		if c.ID == id {
			return i
		}
	}
	return -1
}

// Remove deletes a connection and its API key.
func (s *Store) Remove(ctx context.Context, idOrName string) error {
	c, err := s.Get(ctx, idOrName)
	if err != nil {
		return err
	}
	err = s.file.Update(ctx, func(list *[]Connection) error {
		out := (*list)[:0]
		for _, o := range *list {
			if o.ID != c.ID {
				out = append(out, o)
			}
		}
		*list = out
		return nil
	})
	if err != nil {
		return fmt.Errorf("remove connection: %w", err)
	}
	if c.Settings.AuthMethod == driver.AuthAPIKey {
		if err := s.keys.Delete(apiKeyRef(c.ID)); err != nil {
			return fmt.Errorf("remove connection: %w", err)
		}
	}
	return nil
}

// Resolve returns the connection with its API key filled in from the keyring, ready for a
// driver. The key must not be logged or shown.
func (s *Store) Resolve(ctx context.Context, idOrName string) (Connection, error) {
	c, err := s.Get(ctx, idOrName)
	if err != nil {
		return Connection{}, err
	}
	if c.Settings.AuthMethod == driver.AuthAPIKey {
		key, err := s.keys.Get(apiKeyRef(c.ID))
		if err != nil {
			return Connection{}, fmt.Errorf("connection %q: API key: %w", c.Name, err)
		}
		c.Settings.APIKey = key
	}
	return c, nil
}

// ModTime tells when the saved connections last changed, so the running app can pick up a
// change made by the CLI.
func (s *Store) Stamp() config.Stamp { return s.file.Stamp() }

func validAccess(a string) error {
	switch a {
	case AccessBlocked, AccessReadOnly, AccessReadWrite:
		return nil
	}
	return fmt.Errorf("external access %q is not one of %s, %s, %s", a, AccessBlocked, AccessReadOnly, AccessReadWrite)
}

// VisibleToAI reports whether AI clients (MCP) may see a connection at all: a connection
// whose external access is blocked is invisible to them, neither listed nor readable.
// AIRights decides it.
func VisibleToAI(c Connection) bool { return AIRights(c).Visible() }

// Summary is a saved connection as AI clients see it: never its credentials.
type Summary struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
	Host string `json:"host"`
	Port int    `json:"port"`
}

// AILister lists the connections AI clients may see. *Store implements it; the MCP features
// (backend/mcp/tools, resources, prompts) take it.
type AILister interface {
	ListVisibleToAI(ctx context.Context) ([]Summary, error)
}

// ListVisibleToAI lists the saved connections AI clients may see (VisibleToAI), in the
// store's order.
func (s *Store) ListVisibleToAI(ctx context.Context) ([]Summary, error) {
	list, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(list))
	for _, c := range list {
		if VisibleToAI(c) {
			out = append(out, Summary{ID: c.ID, Name: c.Name, Type: c.Type, Host: c.Settings.Host, Port: c.Settings.Port})
		}
	}
	return out, nil
}
