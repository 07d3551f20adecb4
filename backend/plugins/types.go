package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"app/backend/driver"
	"app/backend/plugins/registry"
)

// ConnType is a connection type a plugin serves: what the chooser and `app connection types`
// list. The words are the installed plugin's own (its description); for a plugin not yet
// installed, the registry's.
type ConnType struct {
	Name    string `json:"name"`
	Label   string `json:"label"`
	Summary string `json:"summary,omitempty"`
	// Plugin serves it; Installed tells whether that plugin is installed here.
	Plugin    string `json:"plugin"`
	Installed bool   `json:"installed"`
}

// Described is what an installed version says of its connections: its plugin.json's copy of
// its program's description; for a version an older app installed (no copy), its program's
// `describe`, asked once and kept in plugin.json; and for a program that describes nothing
// (published before contract 3), protocol 2's fields under its types.
func (m *Manager) Described(v InstalledVersion) driver.Description {
	if v.Connections != nil && len(v.Connections.Settings) > 0 {
		return *v.Connections
	}
	m.mu.Lock()
	d, ok := m.described[v.Dir]
	m.mu.Unlock()
	if ok {
		return d
	}
	d = driver.ProtocolTwoDescription(v.Types...)
	ctx, cancel := context.WithTimeout(context.Background(), describeTimeout)
	defer cancel()
	if got, err := runDescribe(ctx, v.Path()); err == nil && got.Name == v.Name && len(got.Connections.Settings) > 0 && unlistedType(got.Connections, v.Types) == "" {
		d = got.Connections
		mf := v.Manifest
		mf.Connections = &d
		if b, err := json.MarshalIndent(mf, "", "  "); err == nil {
			if err := writeSynced(filepath.Join(v.Dir, manifestName), append(b, '\n'), 0o600); err != nil {
				m.log.WithError(err).Warn("the plugin's description could not be kept in its plugin.json")
			}
		}
	}
	m.mu.Lock()
	m.described[v.Dir] = d
	m.mu.Unlock()
	return d
}

// unlistedType is a type d describes that the signed index does not list for the plugin, or
// "" when it lists them all.
func unlistedType(d driver.Description, types []string) string {
	for _, t := range d.Types {
		if !slices.Contains(types, t.Name) {
			return t.Name
		}
	}
	return ""
}

// InstalledFor is the current version of the installed plugin that serves a connection type.
func (m *Manager) InstalledFor(connType string) (InstalledVersion, bool) {
	for _, v := range m.Running() {
		if slices.Contains(v.Types, connType) {
			return v, true
		}
	}
	return InstalledVersion{}, false
}

// Running are the installed versions that run, one per plugin: Installed lists each
// plugin's versions newest first, and the newest runs (Current).
func (m *Manager) Running() []InstalledVersion {
	all, err := m.Installed()
	if err != nil {
		return nil
	}
	var out []InstalledVersion
	for _, v := range all {
		if len(out) == 0 || out[len(out)-1].Name != v.Name {
			out = append(out, v)
		}
	}
	return out
}

// Types lists the connection types the registry offers and the installed plugins serve, in
// the registry's order, then installed ones it does not list. When the registry cannot be
// read, the installed types are listed with its error.
func (m *Manager) Types(ctx context.Context) ([]ConnType, error) {
	list, err := m.List(ctx)
	var out []ConnType
	seen := map[string]bool{}
	for _, l := range list {
		var d driver.Description
		cur, installed := m.Current(l.Name)
		if installed {
			d = m.Described(cur)
		}
		for _, t := range l.Types {
			if seen[t] {
				continue
			}
			seen[t] = true
			ct := ConnType{Name: t, Label: l.DisplayName, Summary: l.Description, Plugin: l.Name, Installed: installed}
			if dt, ok := d.Type(t); ok {
				ct.Label, ct.Summary = dt.Label, dt.Summary
			}
			if ct.Label == "" {
				ct.Label = t
			}
			out = append(out, ct)
		}
	}
	return out, err
}

// PluginFor names the plugin that serves a connection type: the installed one, else the one
// the registry offers. An unknown type is a not_found refusal listing the known ones.
func (m *Manager) PluginFor(ctx context.Context, connType string) (string, error) {
	if v, ok := m.InstalledFor(connType); ok {
		return v.Name, nil
	}
	types, err := m.Types(ctx)
	for _, t := range types {
		if t.Name == connType {
			return t.Plugin, nil
		}
	}
	if err != nil {
		return "", err
	}
	return "", unknownType(connType, types)
}

func unknownType(connType string, types []ConnType) error {
	names := make([]string, 0, len(types))
	for _, t := range types {
		names = append(names, t.Name)
	}
	known := "none"
	if len(names) > 0 {
		known = strings.Join(names, ", ")
	}
	return &Error{Code: registry.CodeNotFound, Err: ErrUnknownType, Msg: fmt.Sprintf("no driver plugin serves the connection type %q (types: %s)", connType, known)}
}

// ErrUnknownType is the cause of the refusal of a type no plugin serves (installed or in
// the registry that answered).
var ErrUnknownType = errors.New("unknown connection type")

// ErrDescribedByPlugin is the cause of the refusal to describe a type whose plugin describes
// its own settings but is not installed yet.
var ErrDescribedByPlugin = errors.New("the plugin describes its settings: install it first")

// Describe is the description of a connection type's settings: the installed plugin's own;
// for a type only the registry offers, protocol 2's fields under the registry's label (what
// every plugin published before contract 3 reads; a plugin that describes other fields
// must be installed first, and says so).
func (m *Manager) Describe(ctx context.Context, connType string) (driver.Description, error) {
	if v, ok := m.InstalledFor(connType); ok {
		return m.Described(v), nil
	}
	idx, err := m.Index(ctx)
	if err != nil {
		return driver.Description{}, err
	}
	for i := range idx.Plugins {
		p := &idx.Plugins[i]
		if !slices.Contains(p.Types, connType) {
			continue
		}
		ch := p.Choose(m.opts.Platform, m.opts.AppVersion, m.protocols())
		if ch.Status == registry.Available && ch.Version.Connections != nil && len(ch.Version.Connections.Settings) > 0 {
			return *ch.Version.Connections, nil
		}
		if ch.Status == registry.Available && ch.Version.ProtocolVersion > 2 {
			return driver.Description{}, &Error{Code: registry.CodeNotInstalled, Err: ErrDescribedByPlugin,
				Msg: fmt.Sprintf("the %s driver describes its own settings: install it first (`app plugin install %s`, or choose the type in New connection)", p.Name, p.Name)}
		}
		d := driver.ProtocolTwoDescription(connType)
		if p.DisplayName != "" {
			d.Types[0].Label = p.DisplayName
		}
		d.Types[0].Summary = p.Description
		return d, nil
	}
	types, _ := m.Types(ctx)
	return driver.Description{}, unknownType(connType, types)
}
