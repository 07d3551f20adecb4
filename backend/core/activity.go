package core

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/activity"
	"app/backend/config"
	"app/backend/mcp"
	"app/backend/redact"
	"app/backend/secrets"
)

// ActivityService is the MCP activity log (activity.db in the config dir) and the table of
// connected clients of a Core. Open opens the log once; Start starts its background pruning
// (at start, then hourly, keeping mcp.activityRetentionDays); Stop closes it after the MCP
// server has answered its last request, so every request is recorded. Observe is the MCP
// server's Observer.
type ActivityService struct {
	path     string
	log      *logrus.Logger
	settings *config.JSONFile[config.Settings]
	clients  *activity.Clients

	mu sync.RWMutex
	db *activity.Log // nil after close
}

func openActivity(dir string, log *logrus.Logger, settings *config.JSONFile[config.Settings]) (*ActivityService, error) {
	a := &ActivityService{path: activity.Path(dir), log: log, settings: settings, clients: activity.NewClients(nil, 0)}
	if err := a.open(); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *ActivityService) open() error {
	db, err := activity.Open(a.path, activity.Options{Logger: a.log, Redactor: redact.Default()})
	if err != nil {
		return err
	}
	a.db = db
	return nil
}

// Activity is the MCP activity log and the connected clients.
func (c *Core) Activity() *ActivityService { return c.activity }

// Log is the activity log (List, Verify, WriteCSV, Flush), or nil once the Core has stopped.
func (a *ActivityService) Log() *activity.Log {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.db
}

// Clients is the table of clients that called since the app started.
func (a *ActivityService) Clients() *activity.Clients { return a.clients }

// Observe records one answered MCP request in the clients table and queues it for the log;
// it never blocks (mcp.Observer).
func (a *ActivityService) Observe(rec mcp.Record) {
	a.clients.Observe(rec)
	a.mu.RLock()
	if a.db != nil {
		a.db.Observe(rec)
	}
	a.mu.RUnlock()
}

// Available is the MCP server's Options.Available: while the log cannot write (a full disk),
// no request is served, since every request must be recorded (SPEC: the activity log).
func (a *ActivityService) Available() error {
	db := a.Log()
	if db == nil {
		return nil
	}
	if err := db.Err(); err != nil {
		return fmt.Errorf("the app cannot record requests in its activity log (%s: %v), and it serves none it cannot record; free space on that disk, and requests are served again within a second", a.path, err)
	}
	return nil
}

// retention is mcp.activityRetentionDays, read at every prune.
func (a *ActivityService) retention() time.Duration {
	days := config.DefaultActivityRetentionDays
	if s, err := a.settings.Load(context.Background()); err == nil && s.MCP.ActivityRetentionDays > 0 {
		days = s.MCP.ActivityRetentionDays
	}
	return time.Duration(days) * 24 * time.Hour
}

// start starts pruning, reopening the log when a Stop closed it.
func (a *ActivityService) start() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.db == nil {
		if err := a.open(); err != nil {
			return err
		}
	}
	return a.db.StartPruning(a.retention)
}

// close writes what is queued and closes the log.
func (a *ActivityService) close(ctx context.Context) error {
	a.mu.Lock()
	db := a.db
	a.db = nil
	a.mu.Unlock()
	if db == nil {
		return nil
	}
	return db.Close(ctx)
}

// redactingKeyring adds every secret read from or written to the keyring (saved API keys,
// token hashes) to the process's Redactor, so a driver or server that echoes one is scrubbed
// from the log, the activity log and error text, whatever its shape.
type redactingKeyring struct{ secrets.Keyring }

func redactingKeys(k secrets.Keyring) secrets.Keyring { return redactingKeyring{k} }

func (k redactingKeyring) Get(key string) (string, error) {
	v, err := k.Keyring.Get(key)
	if err == nil {
		redact.AddSecret(v)
	}
	return v, err
}

func (k redactingKeyring) Set(key, value string) error {
	redact.AddSecret(value)
	return k.Keyring.Set(key, value)
}
