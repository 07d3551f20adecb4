package plugins

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	"github.com/sirupsen/logrus"

	"app/backend/plugins/host"
	"app/backend/plugins/registry"
)

// CanUninstall says why Uninstall would refuse now (an invalid name, nothing installed, a
// connection of its type open), or nil: the window asks the person only when it would not.
func (m *Manager) CanUninstall(name string) error {
	if err := validName(name); err != nil {
		return err
	}
	if len(m.versions(name)) == 0 {
		return notInstalled(name)
	}
	if m.opts.InUse != nil && m.opts.InUse(name) {
		return &Error{Code: registry.CodeInUse, Msg: fmt.Sprintf("%s cannot be uninstalled while a connection of that type is open: close its connections first.", name)}
	}
	return nil
}

// Uninstall removes every installed version of a plugin. It is refused while a connection
// of the plugin's type is open in this app (Options.InUse), and while any process runs the
// plugin (its version's shared lock: another app with open connections). It returns the
// versions it removed.
func (m *Manager) Uninstall(ctx context.Context, name string) ([]string, error) {
	if err := m.CanUninstall(name); err != nil {
		return nil, err
	}
	if m.opts.Stop != nil {
		m.opts.Stop(name) // this app's idle plugin process lets go of its lock
	}
	unlock, err := m.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	m.sweep()
	versions := m.versions(name)
	var held []*flock.Flock
	release := func() {
		for _, fl := range held {
			_ = fl.Unlock()
		}
	}
	var removed []string
	for _, v := range versions {
		fl := flock.New(filepath.Join(v.Dir, host.LockFile))
		ok, err := fl.TryLock()
		if err != nil || !ok {
			release()
			return nil, &Error{Code: registry.CodeInUse, Err: err, Msg: fmt.Sprintf("%s %s is in use by a running app (its driver process is running): close that app's %s connections or quit it, then uninstall again.", name, v.Version, name)}
		}
		held = append(held, fl)
		removed = append(removed, v.Version)
	}
	trash := filepath.Join(m.dir, fmt.Sprintf(".trash-%s-%d", name, time.Now().UnixNano()))
	err = os.Rename(filepath.Join(m.dir, name), trash)
	release()
	if err != nil {
		// Windows does not rename a directory with an open file: try once more unlocked.
		if err = os.Rename(filepath.Join(m.dir, name), trash); err != nil {
			return nil, fmt.Errorf("removing %s: %w", name, err)
		}
	}
	if err := os.RemoveAll(trash); err != nil {
		m.log.WithError(err).WithField("path", trash).Warn("the uninstalled plugin's files are removed at the next install")
	}
	syncDir(m.dir)
	m.log.WithFields(logrus.Fields{"plugin": name, "versions": removed}).Info("plugin uninstalled")
	return removed, nil
}
