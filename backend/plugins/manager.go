// Package plugins installs, updates, lists and removes the app's driver plugins (SPEC A.3,
// A.5): it fetches the signed registry index (package registry), downloads an artifact with
// progress, checks its size, SHA-256, archive and program against the verified index, and
// moves the finished version into place in one rename. Package host runs what it installed.
//
// On disk, under <config dir>/plugins (0700):
//
//	.lock                      held while anything is installed or removed (any process)
//	.tmp-<name>-<random>/      one install in progress: the download and the unpacked version
//	.trash-<name>-<time>/      a version being removed (uninstall, update), until swept
//	<name>/<version>/          an installed version: the program, plugin.json, .lock
//
// A version directory appears only by renaming a fully written and checked one; a refused or
// failed install removes its .tmp- directory, so nothing half-installed is ever left. The
// newest installed version is the one that runs. docs/plugins.md has the details and every
// refusal's message.
package plugins

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/plugins/grpcdriver"
	"app/backend/plugins/registry"
)

// Error is a refused plugin operation (its Code says which; its text is for the user).
type Error = registry.Error

// Options configure a Manager.
type Options struct {
	// ConfigDir is the app's config dir; plugins live in its plugins/ subdirectory.
	ConfigDir string
	// AppVersion is the app's version, checked against a release's minAppVersion.
	AppVersion string
	// Source is the registry (registry.ResolveSource); an empty URL when none is named (a
	// developer build), and then Mirror alone serves.
	Source registry.Source
	// Mirror is the signed offline mirror a package carries (registry.MirrorSource), used when
	// the registry cannot be reached or none is named; nil without one.
	Mirror *registry.Source
	// InUse tells whether a connection of the plugin's type is open in this app; Uninstall
	// is refused while it is. The core passes host.InUse. Nil: never.
	InUse func(name string) bool
	// Stop stops the plugin's process in this app before its files are removed (host.Stop).
	Stop func(name string)
	// Platform is the platform to install for (default registry.Current()).
	Platform registry.Platform
	// HTTP is the client for http(s) registries (default: registry.Client's).
	HTTP *http.Client
	// Log receives what the manager does.
	Log logrus.FieldLogger
}

// Manager manages the plugins of one config dir. It is safe for concurrent use; installs
// of the same plugin at the same time become one.
type Manager struct {
	opts   Options
	dir    string
	client *registry.Client
	log    logrus.FieldLogger

	mu      sync.Mutex
	flights map[string]*flight
	// described keeps the descriptions read from installed programs (Described), by dir.
	described map[string]driver.Description
}

// New returns a manager; nothing is read or written until a method is called.
func New(opts Options) *Manager {
	if opts.Platform == (registry.Platform{}) {
		opts.Platform = registry.Current()
	}
	if opts.Log == nil {
		opts.Log = logrus.StandardLogger()
	}
	return &Manager{
		opts:      opts,
		dir:       filepath.Join(opts.ConfigDir, "plugins"),
		client:    &registry.Client{HTTP: opts.HTTP},
		log:       opts.Log,
		flights:   map[string]*flight{},
		described: map[string]driver.Description{},
	}
}

// Dir is the plugins directory, <config dir>/plugins.
func (m *Manager) Dir() string { return m.dir }

// Source is the registry the manager reads.
func (m *Manager) Source() registry.Source { return m.opts.Source }

// Platform is the platform the manager installs for.
func (m *Manager) Platform() registry.Platform { return m.opts.Platform }

// Index fetches and verifies the registry's index.
//
// The online registry answers when it can; where it cannot be reached, or none is named, the
// package's bundled mirror does, with the same checks (signature, size, SHA-256). A newer
// plugin online is then offered as an update, never installed unasked.
func (m *Manager) Index(ctx context.Context) (*registry.Signed, error) {
	if m.opts.Source.URL != "" {
		idx, err := m.client.Fetch(ctx, m.opts.Source)
		if err == nil || m.opts.Mirror == nil || registry.CodeOf(err) != registry.CodeUnreachable {
			return idx, err
		}
		m.log.WithField("registry", registry.Display(m.opts.Source.URL)).Info("the plugin registry cannot be reached: the bundled mirror serves")
	}
	if m.opts.Mirror == nil {
		return nil, &Error{Code: registry.CodeNoRegistry, Msg: registry.DeveloperBuild + "."}
	}
	return m.client.Fetch(ctx, *m.opts.Mirror)
}

// FromMirror tells whether an index is the bundled mirror's (for "from the bundled mirror").
func (m *Manager) FromMirror(idx *registry.Signed) bool {
	return idx != nil && m.opts.Mirror != nil && idx.URL == m.opts.Mirror.URL
}

func (m *Manager) protocols() []int { return grpcdriver.Protocols() }

// Listing is one plugin as `app plugin list` and Settings, Plugins show it.
type Listing struct {
	Name        string   `json:"name"`
	DisplayName string   `json:"displayName,omitempty"`
	Description string   `json:"description,omitempty"`
	Publisher   string   `json:"publisher,omitempty"`
	Types       []string `json:"types,omitempty"`
	// Installed is the installed version that runs ("" when none).
	Installed string `json:"installed,omitempty"`
	// Available is the version this app would install here ("" when none).
	Available string `json:"available,omitempty"`
	// Size is the download size of Available, in bytes.
	Size         int64  `json:"size,omitempty"`
	ReleaseNotes string `json:"releaseNotes,omitempty"`
	// Status is one of the List statuses.
	Status ListStatus `json:"status"`
	// Reason says why nothing is available, when the status says so.
	Reason string `json:"reason,omitempty"`
	// FromMirror: the package's bundled mirror answered (the registry could not be reached,
	// or none is named).
	FromMirror bool `json:"fromMirror,omitempty"`
}

// ListStatus is a plugin's state in a listing.
type ListStatus string

// The statuses of List.
const (
	StatusInstalled       ListStatus = "installed"
	StatusUpdateAvailable ListStatus = "update available"
	StatusNotInstalled    ListStatus = "not installed"
	// StatusNotForPlatform is the spec's "not available for this platform" (also for
	// mobile-only plugins and builds this app cannot run; Reason says which).
	StatusNotForPlatform ListStatus = "not available for this platform"
	// StatusNotInRegistry: installed, but the registry no longer lists it.
	StatusNotInRegistry ListStatus = "installed, not in the registry"
)

// List returns the registry's plugins with what is installed, then installed plugins the
// registry does not list. When the registry cannot be read, it returns the installed
// plugins and the registry's error.
func (m *Manager) List(ctx context.Context) ([]Listing, error) {
	installed, err := m.Installed()
	if err != nil {
		return nil, err
	}
	current := map[string]string{}
	for _, iv := range installed {
		if _, ok := current[iv.Name]; !ok {
			current[iv.Name] = iv.Version // newest first
		}
	}
	var out []Listing
	idx, ferr := m.Index(ctx)
	listed := map[string]bool{}
	if ferr == nil {
		for i := range idx.Plugins {
			p := &idx.Plugins[i]
			listed[p.Name] = true
			l := Listing{Name: p.Name, DisplayName: p.DisplayName, Description: p.Description, Publisher: p.Publisher, Types: p.Types, Installed: current[p.Name], FromMirror: m.FromMirror(idx)}
			ch := p.Choose(m.opts.Platform, m.opts.AppVersion, m.protocols())
			switch {
			case ch.Status != registry.Available && l.Installed != "":
				l.Status, l.Reason = StatusInstalled, ch.Reason
			case ch.Status != registry.Available:
				l.Status, l.Reason = StatusNotForPlatform, ch.Reason
			default:
				l.Available, l.Size, l.ReleaseNotes = ch.Version.Version, ch.Artifact.Size, ch.Version.ReleaseNotes
				switch {
				case l.Installed == "":
					l.Status = StatusNotInstalled
				case registry.CompareVersions(l.Available, l.Installed) > 0:
					l.Status = StatusUpdateAvailable
				default:
					l.Status = StatusInstalled
				}
			}
			out = append(out, l)
		}
	}
	for _, iv := range installed {
		if listed[iv.Name] || iv.Version != current[iv.Name] {
			continue
		}
		listed[iv.Name] = true
		st := StatusNotInRegistry
		if ferr != nil {
			st = StatusInstalled // the registry could not be read: nothing is known of it
		}
		out = append(out, Listing{Name: iv.Name, DisplayName: iv.DisplayName, Publisher: iv.Publisher, Types: iv.Types, Installed: iv.Version, Status: st})
	}
	return out, ferr
}

// notInstalled is the refusal for a plugin that is not installed.
func notInstalled(name string) error {
	return &Error{Code: registry.CodeNotInstalled,
		Msg: fmt.Sprintf("the %s driver is not installed: install the plugin with `app plugin install %s` or from Settings, Plugins", name, name)}
}

// validName refuses a name that cannot be a plugin's.
func validName(name string) error {
	if !registry.ValidName(name) {
		return &Error{Code: registry.CodeNotFound, Msg: fmt.Sprintf("%q is not a plugin name (lower-case letters, digits and dashes)", name)}
	}
	return nil
}

// sweep removes what crashed installs and removals left behind. Call it with the plugins
// lock held (no install is in progress then).
func (m *Manager) sweep() {
	entries, err := os.ReadDir(m.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") || strings.HasPrefix(e.Name(), ".trash-") {
			m.log.WithField("path", filepath.Join(m.dir, e.Name())).Info("removing what an interrupted plugin install left")
			_ = os.RemoveAll(filepath.Join(m.dir, e.Name()))
		}
	}
}
