// Package registry is the plugin registry client: the signed index's format, its ed25519
// signature check, the choice of a version and artifact for this platform, and fetching an
// index over http(s) or from a file URL. docs/plugins.md describes the format.
//
// Trust: an index is read only after its signature verified against a trusted key: the
// official key embedded in the app (Official), plus a key the user named explicitly
// (--registry-key, $APP_PLUGIN_REGISTRY_KEY, the setting plugins.registryKey). Nothing of an unverified index is used, except
// its keyId to say which key signed it.
package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"app/backend/driver"
)

// SchemaVersion is the index format this code reads.
const SchemaVersion = 1

// Index is the registry's signed index.json.
type Index struct {
	SchemaVersion int `json:"schemaVersion"`
	// KeyID names the key that signed the index (KeyID of its public key). It is part of the
	// signed bytes; an index whose signature fails says with it which key it claims.
	KeyID       string   `json:"keyId"`
	GeneratedAt string   `json:"generatedAt,omitempty"`
	Plugins     []Plugin `json:"plugins"`
}

// Plugin is one plugin of the index.
type Plugin struct {
	// Name is the plugin's id and its directory name under <config dir>/plugins.
	Name        string `json:"name"`
	DisplayName string `json:"displayName,omitempty"`
	Description string `json:"description,omitempty"`
	Publisher   string `json:"publisher"`
	Homepage    string `json:"homepage,omitempty"`
	// Types are the connection types the plugin serves.
	Types    []string  `json:"types"`
	Versions []Version `json:"versions"`
}

// Version is one release of a plugin.
type Version struct {
	Version string `json:"version"`
	// ProtocolVersion is the driver plugin protocol the release speaks.
	ProtocolVersion int `json:"protocolVersion"`
	// MinAppVersion is the oldest app version the release runs with.
	MinAppVersion string     `json:"minAppVersion,omitempty"`
	ReleaseNotes  string     `json:"releaseNotes,omitempty"`
	PublishedAt   string     `json:"publishedAt,omitempty"`
	Artifacts     []Artifact `json:"artifacts"`
	// Connections is what the release's program says of its connections (`describe`), so
	// that a connection of a type not yet installed is checked by its own fields; nil for a
	// release that does not describe them (protocol 2's fields describe it then).
	Connections *driver.Description `json:"connections,omitempty"`
}

// Artifact is one platform's build of a version.
type Artifact struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
	// URL is absolute (http, https, file) or relative to the index's URL.
	URL    string `json:"url"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Format is the archive format: "tar.gz" (the only one so far).
	Format string `json:"format"`
	// Binary is the executable's file name inside the archive.
	Binary string `json:"binary"`
}

// Platform is the artifact's os/arch.
func (a Artifact) Platform() Platform { return Platform{OS: a.OS, Arch: a.Arch} }

// Plugin returns the named plugin of the index.
func (x *Index) Plugin(name string) (*Plugin, bool) {
	for i := range x.Plugins {
		if x.Plugins[i].Name == name {
			return &x.Plugins[i], true
		}
	}
	return nil, false
}

// Names lists the plugins' names in index order.
func (x *Index) Names() []string {
	out := make([]string, len(x.Plugins))
	for i, p := range x.Plugins {
		out[i] = p.Name
	}
	return out
}

// Title is DisplayName, or Name when there is none.
func (p *Plugin) Title() string {
	if p.DisplayName != "" {
		return p.DisplayName
	}
	return p.Name
}

var (
	nameRE    = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)
	versionRE = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
	platRE    = regexp.MustCompile(`^[a-z0-9]{1,20}$`)
	shaRE     = regexp.MustCompile(`^[0-9a-f]{64}$`)
	binaryRE  = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$`)
)

// ValidName reports whether s can be a plugin name (it becomes a directory name).
func ValidName(s string) bool { return nameRE.MatchString(s) }

// ParseIndex reads verified index bytes and checks every field that later becomes a path,
// a URL or a number. Call it only on bytes whose signature verified (Verify).
func ParseIndex(raw []byte) (*Index, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var x Index
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("not JSON of the index format: %v", err)
	}
	if x.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("schemaVersion %d, this app reads %d", x.SchemaVersion, SchemaVersion)
	}
	seen := map[string]bool{}
	for _, p := range x.Plugins {
		if !nameRE.MatchString(p.Name) {
			return nil, fmt.Errorf("plugin name %q is not lower-case letters, digits and dashes", p.Name)
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("plugin %s is listed twice", p.Name)
		}
		seen[p.Name] = true
		versions := map[string]bool{}
		for _, v := range p.Versions {
			if !versionRE.MatchString(v.Version) {
				return nil, fmt.Errorf("plugin %s: version %q is not a semantic version", p.Name, v.Version)
			}
			if versions[v.Version] {
				return nil, fmt.Errorf("plugin %s: version %s is listed twice", p.Name, v.Version)
			}
			versions[v.Version] = true
			if v.MinAppVersion != "" && !versionRE.MatchString(v.MinAppVersion) {
				return nil, fmt.Errorf("plugin %s %s: minAppVersion %q is not a semantic version", p.Name, v.Version, v.MinAppVersion)
			}
			for _, a := range v.Artifacts {
				if err := checkArtifact(a); err != nil {
					return nil, fmt.Errorf("plugin %s %s, artifact %s/%s: %v", p.Name, v.Version, a.OS, a.Arch, err)
				}
			}
		}
	}
	return &x, nil
}

func checkArtifact(a Artifact) error {
	switch {
	case !platRE.MatchString(a.OS) || !platRE.MatchString(a.Arch):
		return fmt.Errorf("os and arch must be GOOS and GOARCH names")
	case strings.TrimSpace(a.URL) == "":
		return fmt.Errorf("no url")
	case a.Size <= 0:
		return fmt.Errorf("size must be positive")
	case !shaRE.MatchString(a.SHA256):
		return fmt.Errorf("sha256 must be 64 lower-case hex digits")
	case a.Format != "tar.gz":
		return fmt.Errorf("format %q is not tar.gz", a.Format)
	case !binaryRE.MatchString(a.Binary):
		return fmt.Errorf("binary %q is not a plain file name", a.Binary)
	}
	return nil
}

// Marshal writes an index the way the publishing tool signs it: indented JSON, a final
// newline. The signature covers exactly these bytes.
func Marshal(x *Index) ([]byte, error) {
	b, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
