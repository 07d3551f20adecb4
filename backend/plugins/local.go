package plugins

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"app/backend/driver"
	"app/backend/plugins/host"
	"app/backend/plugins/registry"
)

// manifestName is the file in a version directory that describes the installed version.
const manifestName = "plugin.json"

// Manifest is an installed version's plugin.json.
type Manifest struct {
	Name            string   `json:"name"`
	Version         string   `json:"version"`
	ProtocolVersion int      `json:"protocolVersion"`
	DisplayName     string   `json:"displayName,omitempty"`
	Publisher       string   `json:"publisher,omitempty"`
	Types           []string `json:"types,omitempty"`
	// Connections is what the program's describe said of its connections at install (nil
	// for a version an older app installed: protocol 2's fields describe it then).
	Connections *driver.Description `json:"connections,omitempty"`
	// Binary is the program's file name in the version directory.
	Binary string `json:"binary"`
	// SHA256 and Size are the downloaded artifact's, as the signed index gave them.
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// Registry is the index URL it came from, KeyID the key that signed that index.
	Registry    string `json:"registry"`
	KeyID       string `json:"keyId"`
	InstalledAt string `json:"installedAt"`
}

// InstalledVersion is one version on disk.
type InstalledVersion struct {
	Manifest
	// Dir is the version directory.
	Dir string `json:"dir"`
}

// Path is the version's program.
func (v InstalledVersion) Path() string { return filepath.Join(v.Dir, v.Binary) }

// Installed lists the installed versions of every plugin: by name, newest first. Version
// directories without a readable manifest or program are not listed (nothing else puts
// them there).
func (m *Manager) Installed() ([]InstalledVersion, error) {
	names, err := os.ReadDir(m.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []InstalledVersion
	for _, n := range names {
		if n.IsDir() && registry.ValidName(n.Name()) {
			out = append(out, m.versions(n.Name())...)
		}
	}
	return out, nil
}

// versions lists the installed versions of one plugin, newest first.
func (m *Manager) versions(name string) []InstalledVersion {
	entries, err := os.ReadDir(filepath.Join(m.dir, name))
	if err != nil {
		return nil
	}
	var out []InstalledVersion
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(m.dir, name, e.Name())
		mf, err := readManifest(dir)
		if err != nil || mf.Name != name || mf.Version != e.Name() {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, mf.Binary)); err != nil || !st.Mode().IsRegular() {
			continue
		}
		out = append(out, InstalledVersion{Manifest: mf, Dir: dir})
	}
	sort.Slice(out, func(i, j int) bool { return registry.CompareVersions(out[i].Version, out[j].Version) > 0 })
	return out
}

func readManifest(dir string) (Manifest, error) {
	var mf Manifest
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return mf, err
	}
	if err := json.Unmarshal(b, &mf); err != nil {
		return mf, err
	}
	if !registry.ValidName(mf.Name) || filepath.Base(mf.Binary) != mf.Binary || mf.Binary == "" {
		return mf, errors.New("malformed manifest")
	}
	return mf, nil
}

// Current returns the installed version of a plugin that runs: the newest.
func (m *Manager) Current(name string) (InstalledVersion, bool) {
	vs := m.versions(name)
	if len(vs) == 0 {
		return InstalledVersion{}, false
	}
	return vs[0], true
}

// Binary is the host's resolver (host.Options.Resolve): the program of the plugin's current
// version, or a not_installed refusal.
func (m *Manager) Binary(name string) (host.Binary, error) {
	if err := validName(name); err != nil {
		return host.Binary{}, err
	}
	v, ok := m.Current(name)
	if !ok {
		return host.Binary{}, notInstalled(name)
	}
	return host.Binary{Name: name, Version: v.Version, Path: v.Path(), Dir: v.Dir}, nil
}
