// Package connections keeps the user's saved connections: their settings in
// <config dir>/connections.json and their API keys in the keyring, never in the file.
package connections

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"app/backend/config"
	"app/backend/driver"
	"app/backend/secrets"
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
	file  *config.JSONFile[[]Connection]
	keys  secrets.Keyring
	types Types
}

// Types describes the settings of each connection type (the plugins' descriptions). An
// error refuses the connection: its type is unknown, or cannot be described yet.
type Types interface {
	Describe(ctx context.Context, connType string) (driver.Description, error)
	// Installed is the description of a type whose plugin is installed, read without the
	// network: listings (list_connections, polled every few seconds) use it.
	Installed(connType string) (driver.Description, bool)
}

// protocolTwo describes every type by protocol 2's Settings fields: a store nobody told the
// types (tests, tools) checks what every plugin reads.
type protocolTwo struct{}

func (protocolTwo) Describe(_ context.Context, t string) (driver.Description, error) {
	return driver.ProtocolTwoDescription(t), nil
}

func (protocolTwo) Installed(t string) (driver.Description, bool) {
	return driver.ProtocolTwoDescription(t), true
}

// Described are Types that know exactly these descriptions and refuse every other type.
type Described []driver.Description

// Describe returns the description serving the type, or refuses it.
func (ds Described) Describe(_ context.Context, t string) (driver.Description, error) {
	var names []string
	for _, d := range ds {
		if d.Serves(t) {
			return d, nil
		}
		for _, ct := range d.Types {
			names = append(names, ct.Name)
		}
	}
	return driver.Description{}, fmt.Errorf("no driver plugin serves the connection type %q (types: %s)", t, strings.Join(names, ", "))
}

// Installed is Describe without the error.
func (ds Described) Installed(t string) (driver.Description, bool) {
	d, err := ds.Describe(context.Background(), t)
	return d, err == nil
}

// FileName is the saved connections' document in the config dir.
const FileName = "connections.json"

// NewStore returns the store of a config dir; keys holds the API keys. An unreadable
// connections.json is kept as connections.json.bak and the list starts empty
// (config.RecoverCorrupt), so that the app still starts; opts may add config.LogTo.
func NewStore(dir string, keys secrets.Keyring, opts ...config.FileOption) *Store {
	opts = append([]config.FileOption{config.RecoverCorrupt()}, opts...)
	return &Store{
		// Cached: Get runs on every tool call, and reading and decoding the file each time was
		// 17% of the MCP server's CPU at 50 callers (docs/testing.md); a change is still seen
		// by the next read, another program's too.
		file:  config.NewJSONFile(filepath.Join(dir, FileName), func() []Connection { return nil }, opts...).Cached(cloneList),
		keys:  keys,
		types: protocolTwo{},
	}
}

// cloneList copies saved connections down to their settings' maps and slices.
func cloneList(list []Connection) []Connection {
	if list == nil {
		return nil
	}
	out := make([]Connection, len(list))
	for i, c := range list {
		c.Settings = c.Settings.Clone()
		out[i] = c
	}
	return out
}

// SetTypes makes the store check each connection against its type's description (the core
// passes the plugins'); until then every type is checked by protocol 2's fields.
func (s *Store) SetTypes(t Types) { s.types = t }

// Problem is why connections.json could not be read when this store last replaced it by an
// empty list (naming the file and where its bytes were kept), or nil.
func (s *Store) Problem() error { return s.file.Problem() }

func apiKeyRef(id string) string { return "connection/" + id + "/apiKey" }

// secretRef is where a secret setting lives in the keyring: the API key where it always
// lived, any other under the connection's secret/ prefix.
func secretRef(id, key string) string {
	if key == driver.KeyAPIKey {
		return apiKeyRef(id)
	}
	return "connection/" + id + "/secret/" + key
}

// SavedSecrets are the keys of the secrets a saved connection has in the keyring.
func SavedSecrets(c Connection) []string {
	var out []string
	if c.Settings.AuthMethod == driver.AuthAPIKey {
		out = append(out, driver.KeyAPIKey)
	}
	return append(out, c.Settings.SecretKeys...)
}

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

// Add validates and saves a new connection, with its API key and its other secret settings
// (c.Settings.Secrets) in the keyring.
func (s *Store) Add(ctx context.Context, c Connection, apiKey string) (Connection, error) {
	c.Settings = c.Settings.Clone()
	given := c.Settings.Secrets
	if err := prepareMeta(&c); err != nil {
		return Connection{}, fmt.Errorf("add connection: %w", err)
	}
	d, err := s.types.Describe(ctx, c.Type)
	if err != nil {
		return Connection{}, fmt.Errorf("add connection: %w", err)
	}
	if err := prepareSettings(d, &c, apiKey, given, nil); err != nil {
		return Connection{}, fmt.Errorf("add connection: %w", err)
	}
	c.ID = uuid.NewString()
	c.CreatedAt = time.Now().UTC().Truncate(time.Second)
	var stored []string
	undo := func() {
		for _, k := range stored {
			_ = s.keys.Delete(secretRef(c.ID, k))
		}
	}
	if c.Settings.AuthMethod == driver.AuthAPIKey {
		if err := s.keys.Set(apiKeyRef(c.ID), apiKey); err != nil {
			return Connection{}, fmt.Errorf("add connection: %w", err)
		}
		stored = append(stored, driver.KeyAPIKey)
	}
	for _, k := range c.Settings.SecretKeys {
		if err := s.keys.Set(secretRef(c.ID, k), given[k]); err != nil {
			undo()
			return Connection{}, fmt.Errorf("add connection: %w", err)
		}
		stored = append(stored, k)
	}
	err = s.file.Update(ctx, func(list *[]Connection) error {
		if err := uniqueName(*list, c); err != nil {
			return err
		}
		*list = append(*list, c)
		return nil
	})
	if err != nil {
		undo()
		return Connection{}, fmt.Errorf("add connection: %w", err)
	}
	return c, nil
}

// prepareMeta fills in the defaults of what every connection has (external access, AI
// policy) and checks them, its type and its name, the same way for Add and Update.
func prepareMeta(c *Connection) error {
	c.Name = strings.TrimSpace(c.Name)
	if c.Name == "" {
		return errors.New("a name is required")
	}
	c.Type = strings.TrimSpace(c.Type)
	if c.Type == "" {
		// The types are the installed plugins' and the registry's: the store prefers none.
		return errors.New("a connection type is required (app connection types lists them)")
	}
	withDefaults(c)
	if err := validAccess(c.ExternalAccess); err != nil {
		return err
	}
	return validPolicy(c.AIPolicy)
}

// prepareSettings checks a connection's settings against its type's description d and keeps
// exactly what it describes: each field that applies (its ShowWhen holds), as trimmed text;
// a field that does not apply, and anything d does not name, is not saved. apiKey is an API
// key typed now; given the other secrets typed now; kept the keys of secrets already in the
// keyring that stay unless their field no longer applies. The secrets' values are never
// saved in the file: the result records which keys the connection keeps (SecretKeys).
func prepareSettings(d driver.Description, c *Connection, apiKey string, given map[string]string, kept []string) error {
	in := c.Settings.Normalized()
	for k := range in.Values {
		if f, ok := d.Field(k); !ok || f.Kind == driver.FieldSecret || driver.FixedKey(k) {
			return unknownSetting(d, c.Type, k)
		}
	}
	// Every described value as trimmed text: what is checked is what is saved and sent.
	var trimmed driver.Settings
	for _, f := range d.Settings {
		if f.Kind == driver.FieldSecret {
			continue
		}
		if err := trimmed.SetValue(f.Key, strings.TrimSpace(in.Value(f.Key))); err != nil {
			return err
		}
	}
	check := trimmed.Clone()
	check.APIKey = apiKey
	for k, v := range given {
		if f, ok := d.Field(k); !ok || f.Kind != driver.FieldSecret || k == driver.KeyAPIKey {
			return unknownSetting(d, c.Type, k)
		}
		check.SetSecret(k, v)
	}
	if err := d.Check(check, func(k string) bool { return slices.Contains(kept, k) }); err != nil {
		return err
	}
	if apiKey != "" {
		if f, ok := d.Field(driver.KeyAPIKey); !ok || f.Kind != driver.FieldSecret {
			return unknownSetting(d, c.Type, driver.KeyAPIKey)
		} else if !f.Applies(check) {
			return fmt.Errorf("an API key was given but Auth Method is %q: choose %q", check.AuthMethod, driver.AuthAPIKey)
		}
	}
	var out driver.Settings
	var keys []string
	for _, f := range d.Settings {
		if !f.Applies(check) {
			continue
		}
		switch {
		case f.Kind != driver.FieldSecret:
			_ = out.SetValue(f.Key, trimmed.Value(f.Key))
		case f.Key != driver.KeyAPIKey && (given[f.Key] != "" || slices.Contains(kept, f.Key)):
			keys = append(keys, f.Key)
		}
	}
	out.SecretKeys = keys
	c.Settings = out
	return nil
}

// unknownSetting refuses a key the type's description does not name, listing the ones it does.
func unknownSetting(d driver.Description, connType, key string) error {
	var keys []string
	for _, f := range d.Settings {
		keys = append(keys, f.Key)
	}
	e := driver.Errorf(driver.KindInvalidArgument, "%q is not a setting of %s connections (settings: %s)", key, connType, strings.Join(keys, ", "))
	e.Field = key
	return e
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
	// Secrets replace other secret settings in the keyring, by key; a secret not named keeps
	// its saved value.
	Secrets map[string]string
	// Check, when not nil, sees the connection before and after the edit, under the file's
	// lock, and may refuse it: nothing is saved then. The CLI refuses an unconfirmed raise of
	// AI rights (RaisedRights) here, so a concurrent change cannot slip one through.
	Check func(before, after Connection) error
}

// Update edits a saved connection (by ID, or else by name) and returns it before and after.
// The API key and the other secrets are kept unless new ones are given; a secret whose field
// no longer applies (Auth Method None) is deleted from the keyring. An edit that leaves the
// settings as they are (a new name, lower AI rights) is never held up by them: they are
// checked against the type's description only when they change, and that description is
// read before the file is locked.
func (s *Store) Update(ctx context.Context, idOrName string, ch Change) (before, after Connection, err error) {
	target, err := s.Get(ctx, idOrName)
	if err != nil {
		return Connection{}, Connection{}, err
	}
	desc, descErr := s.types.Describe(ctx, target.Type)
	// written are the keyring entries this edit replaced, with what they held, to put back
	// when the file keeps the old connection.
	type old struct {
		value string
		had   bool
	}
	written := map[string]old{}
	err = s.file.Update(ctx, func(list *[]Connection) error {
		i := indexOf(*list, target.ID)
		if i < 0 {
			return fmt.Errorf("%w: %q", ErrNotFound, idOrName)
		}
		before = (*list)[i]
		withDefaults(&before)
		after = before
		after.Settings = before.Settings.Clone()
		if ch.Apply != nil {
			ch.Apply(&after)
		}
		after.ID, after.CreatedAt = before.ID, before.CreatedAt
		if ch.APIKey != nil && *ch.APIKey == "" {
			return errors.New("the new API key is empty")
		}
		for k, v := range ch.Secrets {
			if v == "" {
				return fmt.Errorf("the new %s is empty", k)
			}
		}
		if err := prepareMeta(&after); err != nil {
			return err
		}
		if after.Type != before.Type || ch.APIKey != nil || len(ch.Secrets) > 0 || !sameSettings(before.Settings, after.Settings) {
			d, err := desc, descErr
			if after.Type != target.Type {
				d, err = s.types.Describe(ctx, after.Type)
			}
			if err != nil {
				return err
			}
			key := ""
			if ch.APIKey != nil {
				key = *ch.APIKey
			}
			if err := prepareSettings(d, &after, key, ch.Secrets, SavedSecrets(before)); err != nil {
				return err
			}
		}
		if err := uniqueName(*list, after); err != nil {
			return err
		}
		if ch.Check != nil {
			if err := ch.Check(before, after); err != nil {
				return err
			}
		}
		set := func(k, v string) error {
			ref := secretRef(after.ID, k)
			if _, done := written[ref]; !done {
				prev, gerr := s.keys.Get(ref)
				if gerr != nil && !errors.Is(gerr, secrets.ErrNotFound) {
					// What it held cannot be read, so it could not be put back: change nothing.
					return fmt.Errorf("the keyring cannot be read: %w", gerr)
				}
				written[ref] = old{prev, gerr == nil}
			}
			return s.keys.Set(ref, v)
		}
		if ch.APIKey != nil {
			if err := set(driver.KeyAPIKey, *ch.APIKey); err != nil {
				return err
			}
		}
		for _, k := range after.Settings.SecretKeys {
			if v, ok := ch.Secrets[k]; ok {
				if err := set(k, v); err != nil {
					return err
				}
			}
		}
		(*list)[i] = after
		return nil
	})
	if err != nil {
		for ref, o := range written { // the file kept the old connection: put its secrets back
			if o.had {
				_ = s.keys.Set(ref, o.value)
			} else {
				_ = s.keys.Delete(ref)
			}
		}
		return Connection{}, Connection{}, fmt.Errorf("edit connection: %w", err)
	}
	var errs []error
	for _, k := range SavedSecrets(before) {
		if slices.Contains(SavedSecrets(after), k) {
			continue
		}
		if err := s.keys.Delete(secretRef(after.ID, k)); err != nil && !errors.Is(err, secrets.ErrNotFound) {
			errs = append(errs, fmt.Errorf("its old %s could not be deleted: %w", k, err))
		}
	}
	if len(errs) > 0 {
		return before, after, fmt.Errorf("edit connection: the connection was saved, but %w", errors.Join(errs...))
	}
	return before, after, nil
}

// sameSettings reports whether two settings save the same (their JSON, defaults filled in).
func sameSettings(a, b driver.Settings) bool {
	ja, _ := json.Marshal(a.Normalized())
	jb, _ := json.Marshal(b.Normalized())
	return string(ja) == string(jb)
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
	var errs []error
	for _, k := range SavedSecrets(c) {
		if err := s.keys.Delete(secretRef(c.ID, k)); err != nil && (k == driver.KeyAPIKey || !errors.Is(err, secrets.ErrNotFound)) {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("remove connection: %w", errors.Join(errs...))
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
	c.Settings = c.Settings.Clone()
	if c.Settings.AuthMethod == driver.AuthAPIKey {
		key, err := s.keys.Get(apiKeyRef(c.ID))
		if err != nil {
			return Connection{}, fmt.Errorf("connection %q: API key: %w", c.Name, err)
		}
		c.Settings.APIKey = key
	}
	for _, k := range c.Settings.SecretKeys {
		v, err := s.keys.Get(secretRef(c.ID, k))
		if err != nil {
			return Connection{}, fmt.Errorf("connection %q: %s: %w", c.Name, k, err)
		}
		c.Settings.SetSecret(k, v)
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

// Summary is a saved connection as AI clients see it: never its credentials. Language and
// Notes are its driver's words (driver.Words): what execute_query takes, and the prompts'
// paragraph on how it is queried.
type Summary struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Type     string `json:"type"`
	Host     string `json:"host"`
	Port     int    `json:"port"`
	Address  string `json:"address,omitempty"`
	Language string `json:"language,omitempty"`
	Notes    string `json:"-"`
}

// AILister lists the connections AI clients may see. *Store implements it; the MCP features
// (backend/mcpfeatures/tools, resources, prompts) take it.
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
	described := map[string]*driver.Description{}
	for _, c := range list {
		if !VisibleToAI(c) {
			continue
		}
		d, ok := described[c.Type]
		if !ok {
			d = s.installedDescription(c.Type)
			described[c.Type] = d
		}
		sum := Summary{ID: c.ID, Name: c.Name, Type: c.Type, Host: c.Settings.Host, Port: c.Settings.Port}
		if d != nil {
			sum.Address = d.AddressOf(c.Settings)
			if w := d.Words; w != nil {
				sum.Language, sum.Notes = w.Language, w.Notes
			}
		}
		out = append(out, sum)
	}
	return out, nil
}

// installedDescription is the description of the connection type's installed plugin, read
// without the network, or protocol 2's fields for a type whose plugin is not installed.
func (s *Store) installedDescription(connType string) *driver.Description {
	got, installed := s.types.Installed(connType)
	if !installed {
		got = driver.ProtocolTwoDescription(connType)
	}
	return &got
}

// Words are what the driver of c's type says to AI clients (driver.Words), nil when it says
// nothing; read without the network.
func (s *Store) Words(c Connection) *driver.Words {
	return s.installedDescription(c.Type).Words
}
