package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"app/app/dto"
	"app/backend/config"
	"app/backend/connections"
	"app/backend/core"
	"app/backend/driver"
	"app/backend/plugins"
)

// callTimeout bounds one bound call, so a wedged store cannot hang the UI forever.
const callTimeout = 30 * time.Second

// ConnectionStore is the part of connections.Store the sidebar and the form need.
type ConnectionStore interface {
	List(ctx context.Context) ([]connections.Connection, error)
	Get(ctx context.Context, idOrName string) (connections.Connection, error)
	Add(ctx context.Context, c connections.Connection, apiKey string) (connections.Connection, error)
	Update(ctx context.Context, idOrName string, ch connections.Change) (before, after connections.Connection, err error)
	Resolve(ctx context.Context, idOrName string) (connections.Connection, error)
	Remove(ctx context.Context, idOrName string) error
	Stamp() config.Stamp
}

// ConnectionTester connects once with a connection's settings (core.Core.TestConnection)
// and describes connection types (core.Core.Describe, Types).
type ConnectionTester interface {
	TestConnection(ctx context.Context, c connections.Connection, apiKey string) (string, []driver.PathStatus, error)
	Describe(ctx context.Context, connType string) (driver.Description, error)
	Installed(connType string) (driver.Description, bool)
	Types(ctx context.Context) ([]plugins.ConnType, error)
}

// ConnectionsAPI is the connection sidebar's view of the backend. Its exported methods are
// bound to the frontend (frontend/wailsjs/go/app/ConnectionsAPI).
type ConnectionsAPI struct {
	base
	store ConnectionStore
	// tester runs the form's Test (nil: Test is unavailable).
	tester ConnectionTester
}

// NewConnectionsAPI returns the facade over a store.
func NewConnectionsAPI(store ConnectionStore) *ConnectionsAPI {
	return &ConnectionsAPI{store: store}
}

func (a *ConnectionsAPI) wire(c *core.Core) { a.store, a.tester = c.Connections(), c }

// start also watches the saved connections for changes made elsewhere (the CLI) while the
// window is up.
func (a *ConnectionsAPI) start(e env) {
	a.base.start(e)
	if e.up() {
		go a.watch(e.ctx, watchInterval, e.emit)
	}
}

// List returns the saved connections in the order they were added. It never returns null:
// an empty list is [].
func (a *ConnectionsAPI) List() ([]dto.ConnectionDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	list, err := a.store.List(ctx)
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]dto.ConnectionDTO, 0, len(list))
	known := map[string]driver.Description{}
	for _, c := range list {
		out = append(out, a.described(c, known))
	}
	return out, nil
}

// described is the sidebar's entry for c, with its type's address and label; known caches
// the descriptions read during one call (nil: none).
func (a *ConnectionsAPI) described(c connections.Connection, known map[string]driver.Description) dto.ConnectionDTO {
	if a.tester == nil {
		return dto.FromConnection(c)
	}
	d, ok := known[c.Type]
	if !ok {
		// Installed plugins only: the sidebar lists often and must not wait on the network.
		if d, ok = a.tester.Installed(c.Type); !ok {
			return dto.FromConnection(c)
		}
		if known != nil {
			known[c.Type] = d
		}
	}
	return dto.Described(c, d)
}

// Remove deletes the saved connection with this ID, and its API key, after the user
// confirms in a native dialog that names it. It returns false, and deletes nothing, when the
// user declines.
func (a *ConnectionsAPI) Remove(id string) (bool, error) {
	if strings.TrimSpace(id) == "" {
		return false, invalidArgument("a connection id is required")
	}
	ctx, cancel := a.callContext()
	defer cancel()
	c, err := a.store.Get(ctx, id)
	if err != nil {
		return false, apiError(err)
	}
	where := a.described(c, nil).Address
	if where != "" {
		where = " (" + where + ")"
	}
	msg := fmt.Sprintf("Delete the connection “%s”%s?\n\nIts saved secrets (an API key, a password) are removed from the keyring too. This cannot be undone.", c.Name, where)
	yes, err := a.ask("Delete connection", msg, func(ctx context.Context) error {
		return a.store.Remove(ctx, c.ID)
	})
	return yes, apiError(err)
}

// Get returns a saved connection for the edit form. The API key is never sent to the UI:
// HasAPIKey tells that one is saved.
func (a *ConnectionsAPI) Get(id string) (dto.ConnectionFormDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	c, err := a.store.Get(ctx, id)
	if err != nil {
		return dto.ConnectionFormDTO{}, apiError(err)
	}
	return dto.FormFromConnection(c), nil
}

// Save adds the form's connection (ID "") or edits the saved one. secrets are the secret
// settings typed in the form, by key; one left out keeps the saved value of an edited
// connection, a new one replaces it (after a rotation).
func (a *ConnectionsAPI) Save(form dto.ConnectionFormDTO, secrets map[string]string) (dto.ConnectionDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	c, err := form.Connection()
	if err != nil {
		return dto.ConnectionDTO{}, apiError(err)
	}
	apiKey, others := splitSecrets(secrets)
	if form.ID == "" {
		c.Settings.Secrets = others
		saved, err := a.store.Add(ctx, c, apiKey)
		if err != nil {
			return dto.ConnectionDTO{}, apiError(invalid(err))
		}
		return a.described(saved, nil), nil
	}
	ch := connections.Change{Apply: func(cur *connections.Connection) {
		keys := cur.Settings.SecretKeys
		cur.Name, cur.Type, cur.Settings = c.Name, c.Type, c.Settings
		cur.Settings.SecretKeys = keys
		cur.ExternalAccess, cur.AIPolicy = c.ExternalAccess, c.AIPolicy
	}, Secrets: others}
	if apiKey != "" {
		ch.APIKey = &apiKey
	}
	_, after, err := a.store.Update(ctx, form.ID, ch)
	if err != nil {
		return dto.ConnectionDTO{}, apiError(invalid(err))
	}
	return a.described(after, nil), nil
}

// splitSecrets parts the form's secrets into the API key (protocol 2's own field) and the
// others, leaving out the empty ones (not typed: the saved value stays).
func splitSecrets(secrets map[string]string) (apiKey string, others map[string]string) {
	for k, v := range secrets {
		switch {
		case v == "":
		case k == driver.KeyAPIKey:
			apiKey = v
		default:
			if others == nil {
				others = map[string]string{}
			}
			others[k] = v
		}
	}
	return apiKey, others
}

// testTimeout bounds the form's Test, which may first install the type's plugin.
const testTimeout = 2 * time.Minute

// Test connects with the form's values (not saved) and returns the server's version, or the
// driver's "Authentication failed: ..." / "Connection failed: ..." error with its hint.
func (a *ConnectionsAPI) Test(form dto.ConnectionFormDTO, secrets map[string]string) (dto.TestResultDTO, error) {
	if a.tester == nil {
		return dto.TestResultDTO{}, unavailable("testing a connection needs the backend")
	}
	ctx, cancel := context.WithTimeout(a.parent(), testTimeout)
	defer cancel()
	c, err := form.Connection()
	if err != nil {
		return dto.TestResultDTO{}, apiError(err)
	}
	apiKey, others := splitSecrets(secrets)
	c.Settings.Secrets = others
	v, paths, err := a.tester.TestConnection(ctx, c, apiKey)
	var changed map[string]string
	var de *driver.Error
	if errors.As(err, &de) && de.Fix != nil && a.env().confirm != nil {
		// The driver would succeed with a setting changed that it does not decide alone (a
		// missing file created): the person says, in the native dialog, under no time limit.
		yes, cerr := a.env().confirm.Confirm(a.parent(), "Change the connection’s settings", de.Fix.Question)
		if cerr == nil && yes && c.Settings.SetValue(de.Fix.Key, de.Fix.Value) == nil {
			changed = map[string]string{de.Fix.Key: de.Fix.Value}
			retry, cancelRetry := context.WithTimeout(a.parent(), testTimeout)
			defer cancelRetry()
			v, paths, err = a.tester.TestConnection(retry, c, apiKey)
		}
	}
	if err != nil {
		return dto.TestResultDTO{}, apiError(err)
	}
	out := dto.FromTest(v, paths)
	out.Changed = changed
	return out, nil
}

// FromURL is what a connection URL of the type's form fills: setting values and secrets by
// key (contract 3). The form fills its fields with them; the URL itself is never saved.
func (a *ConnectionsAPI) FromURL(connType, raw string) (dto.URLFieldsDTO, error) {
	d, err := a.Describe(connType)
	if err != nil {
		return dto.URLFieldsDTO{}, err
	}
	values, secrets, err := d.FromURL(raw)
	if err != nil {
		return dto.URLFieldsDTO{}, apiError(err)
	}
	return dto.URLFieldsDTO{Values: values, Secrets: secrets}, nil
}

// Describe returns what a connection type's plugin says of its connections: the form's
// fields, suggestions and address (contract 3). The window renders the form from it.
func (a *ConnectionsAPI) Describe(connType string) (driver.Description, error) {
	if a.tester == nil {
		return driver.ProtocolTwoDescription(connType), nil
	}
	ctx, cancel := a.callContext()
	defer cancel()
	d, err := a.tester.Describe(ctx, connType)
	if err != nil {
		return driver.Description{}, apiError(err)
	}
	return d, nil
}

// Types lists the connection types the chooser offers: the registry's and the installed
// plugins'. When the registry cannot be read, the installed ones come with the reason in
// an error only when there are none.
func (a *ConnectionsAPI) Types() ([]plugins.ConnType, error) {
	if a.tester == nil {
		return []plugins.ConnType{}, nil
	}
	ctx, cancel := a.callContext()
	defer cancel()
	types, err := a.tester.Types(ctx)
	if err != nil && len(types) == 0 {
		return nil, apiError(pluginError(err))
	}
	if types == nil {
		types = []plugins.ConnType{}
	}
	return types, nil
}

// Duplicate saves a copy of a connection, with its API key, named "<name> (copy)" (or
// "(copy 2)" and so on, to stay unique).
func (a *ConnectionsAPI) Duplicate(id string) (dto.ConnectionDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	src, err := a.store.Resolve(ctx, id)
	if err != nil {
		return dto.ConnectionDTO{}, apiError(err)
	}
	list, err := a.store.List(ctx)
	if err != nil {
		return dto.ConnectionDTO{}, apiError(err)
	}
	taken := map[string]bool{}
	for _, c := range list {
		taken[strings.ToLower(c.Name)] = true
	}
	name := src.Name + " (copy)"
	for n := 2; taken[strings.ToLower(name)]; n++ {
		name = fmt.Sprintf("%s (copy %d)", src.Name, n)
	}
	key := src.Settings.APIKey
	cp := src
	cp.ID, cp.Name, cp.Settings.APIKey = "", name, ""
	saved, err := a.store.Add(ctx, cp, key)
	if err != nil {
		return dto.ConnectionDTO{}, apiError(err)
	}
	return a.described(saved, nil), nil
}

// invalid marks a validation failure of the form (no code of its own) as invalid_argument,
// so the form shows it beside the fields rather than as a crash.
func invalid(err error) error {
	if errorCode(err) == CodeInternal && !errors.Is(err, context.DeadlineExceeded) {
		return &codedError{code: CodeInvalidArgument, err: err}
	}
	return err
}

// watch emits EventConnectionsChanged whenever the store's file changes, until ctx ends.
// Polling the file's version (config.Stamp) is cheap and works on every platform and file system.
func (a *ConnectionsAPI) watch(ctx context.Context, every time.Duration, emit Emitter) {
	last := a.store.Stamp()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if cur := a.store.Stamp(); !cur.Same(last) {
			last = cur
			emit.Emit(EventConnectionsChanged)
		}
	}
}

// ChooseFile is the native open dialog for a path field of the connection form (a CA file,
// a database file); "" when closed.
func (a *ConnectionsAPI) ChooseFile(title string) (string, error) {
	open := a.env().files.Open
	if open == nil {
		return "", unavailable("no open dialog here")
	}
	path, err := open(a.parent(), title, nil)
	if err != nil {
		return "", apiError(err)
	}
	return path, nil
}
