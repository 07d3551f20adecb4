package config

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"app/backend/plugins/registry"
)

// Settings is the user's settings file. Secrets never live here (see package secrets).
type Settings struct {
	MCP     MCPSettings     `json:"mcp"`
	Plugins PluginsSettings `json:"plugins"`
}

// PluginsSettings choose the plugin registry (docs/plugins.md). Empty values mean the
// official registry and its key, embedded in the app. $APP_PLUGIN_REGISTRY and
// $APP_PLUGIN_REGISTRY_KEY, and the --registry flags of `app plugin`, win over these.
type PluginsSettings struct {
	// Registry is the index URL (http, https or file) of another registry.
	Registry string `json:"registry"`
	// RegistryKey is the public key ("ed25519:<base64>") trusted, besides the official one,
	// to sign that registry's index.
	RegistryKey string `json:"registryKey"`
}

// MCPSettings configures the local MCP endpoint.
type MCPSettings struct {
	// Enabled starts the server with the app.
	Enabled bool `json:"enabled"`
	// Port is the loopback port to bind; 0 picks a free one. Clients read the bound port from
	// the handshake file, so 0 is safe for them; a fixed port helps clients configured by URL.
	Port int `json:"port"`
	// RequireAuth makes every request carry a bearer token; off, every loopback caller is the
	// anonymous read-only principal. On for a new config dir: another local user or process
	// must not read a person's databases through loopback. Read per request, so a change needs
	// no restart.
	RequireAuth bool `json:"requireAuth"`
	// ExternalAccess false answers every MCP call with 403 -33007, whatever the token: the
	// user's switch that shuts AI clients out while the server keeps running. Read per request.
	ExternalAccess bool `json:"externalAccess"`
	// RateLimitPerMinute is how many requests each MCP caller (a token, or the anonymous
	// principal) may send a minute, in bursts of a quarter of it; 0 turns the rate limit off.
	// Read per request.
	RateLimitPerMinute int `json:"rateLimitPerMinute"`
	// DefaultRowLimit and MaxRowLimit bound the rows a tool returns.
	DefaultRowLimit int `json:"defaultRowLimit"`
	MaxRowLimit     int `json:"maxRowLimit"`
	// QueryTimeoutSeconds bounds one statement run for an AI client.
	QueryTimeoutSeconds int `json:"queryTimeoutSeconds"`
	// ActivityRetentionDays is how long the activity log keeps an entry (1 to 3650 days);
	// older entries are pruned hourly without breaking the chain's verifiability.
	ActivityRetentionDays int `json:"activityRetentionDays"`
}

// DefaultMCPPort is the port a new install binds. It is fixed (rather than 0) so that
// clients configured with a URL keep working across restarts.
const DefaultMCPPort = 23817

// DefaultActivityRetentionDays is how long the activity log keeps entries on a new install.
const DefaultActivityRetentionDays = 90

// DefaultSettings is what a new install starts with.
func DefaultSettings() Settings {
	return Settings{MCP: MCPSettings{
		Enabled:             true,
		Port:                DefaultMCPPort,
		RequireAuth:         true,
		ExternalAccess:      true,
		RateLimitPerMinute:  240,
		DefaultRowLimit:     500,
		MaxRowLimit:         10000,
		QueryTimeoutSeconds: 30,

		ActivityRetentionDays: DefaultActivityRetentionDays,
	}}
}

// ClosedSettings are the settings in force when App cannot vouch for its settings file (the
// policy seal lost): the defaults with the MCP server off and no external access, so that a
// seal removed by another program opens nothing.
func ClosedSettings() Settings {
	s := DefaultSettings()
	s.MCP.Enabled, s.MCP.ExternalAccess, s.MCP.RequireAuth = false, false, true
	return s
}

// Validate rejects values the app cannot run with, naming the key and the allowed range.
func (s Settings) Validate() error {
	m := s.MCP
	switch {
	case m.Port < 0 || m.Port > 65535:
		return fmt.Errorf("mcp.port must be between 0 and 65535, got %d", m.Port)
	case m.MaxRowLimit < 1 || m.MaxRowLimit > 10000:
		return fmt.Errorf("mcp.maxRowLimit must be between 1 and 10000, got %d", m.MaxRowLimit)
	case m.DefaultRowLimit < 1 || m.DefaultRowLimit > m.MaxRowLimit:
		return fmt.Errorf("mcp.defaultRowLimit must be between 1 and mcp.maxRowLimit (%d), got %d", m.MaxRowLimit, m.DefaultRowLimit)
	case m.RateLimitPerMinute < 0 || m.RateLimitPerMinute > 100000:
		return fmt.Errorf("mcp.rateLimitPerMinute must be between 0 (no limit) and 100000, got %d", m.RateLimitPerMinute)
	case m.QueryTimeoutSeconds < 1 || m.QueryTimeoutSeconds > 330:
		return fmt.Errorf("mcp.queryTimeoutSeconds must be between 1 and 330, got %d", m.QueryTimeoutSeconds)
	case m.ActivityRetentionDays < 1 || m.ActivityRetentionDays > 3650:
		return fmt.Errorf("mcp.activityRetentionDays must be between 1 and 3650, got %d", m.ActivityRetentionDays)
	}
	if u := s.Plugins.Registry; u != "" {
		if _, err := registry.IndexURL(u); err != nil {
			return fmt.Errorf("plugins.registry: %w", err)
		}
	}
	if k := s.Plugins.RegistryKey; k != "" {
		if _, err := registry.ParsePublicKey(k); err != nil {
			return fmt.Errorf("plugins.registryKey: %w", err)
		}
	}
	return nil
}

// SettingsFileName is the settings document's name in the config dir.
const SettingsFileName = "settings.json"

// SettingsFile is the settings document of a config dir. An unreadable settings.json is kept
// as settings.json.bak and the defaults are used (RecoverCorrupt): a broken file must not keep
// the app from starting. opts may add LogTo.
func SettingsFile(dir string, opts ...FileOption) *JSONFile[Settings] {
	opts = append([]FileOption{RecoverCorrupt()}, opts...)
	return NewJSONFile(filepath.Join(dir, SettingsFileName), DefaultSettings, opts...)
}

// SettingKeys lists the dotted keys that Get and Set accept, sorted.
func SettingKeys() []string {
	var keys []string
	walkKeys("", toTree(DefaultSettings()), &keys)
	sort.Strings(keys)
	return keys
}

// GetSetting returns the value of a dotted key such as "mcp.requireAuth".
func GetSetting(ctx context.Context, f *JSONFile[Settings], key string) (any, error) {
	s, err := f.Load(ctx)
	if err != nil {
		return nil, err
	}
	parent, leaf, err := locate(toTree(s), key)
	if err != nil {
		return nil, err
	}
	return parent[leaf], nil
}

// SetSetting parses raw as the type the key already has and stores it after validation.
func SetSetting(ctx context.Context, f *JSONFile[Settings], key, raw string) error {
	return f.Update(ctx, func(s *Settings) error {
		tree := toTree(*s)
		parent, leaf, err := locate(tree, key)
		if err != nil {
			return err
		}
		switch parent[leaf].(type) {
		case bool:
			b, err := strconv.ParseBool(raw)
			if err != nil {
				return fmt.Errorf("%s takes true or false, got %q", key, raw)
			}
			parent[leaf] = b
		case json.Number:
			if _, err := strconv.ParseInt(raw, 10, 64); err != nil {
				return fmt.Errorf("%s takes a whole number, got %q", key, raw)
			}
			parent[leaf] = json.Number(raw)
		case string:
			parent[leaf] = raw
		default:
			return fmt.Errorf("%s is not a single value", key)
		}
		var next Settings
		data, _ := json.Marshal(tree)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&next); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if err := next.Validate(); err != nil {
			return err
		}
		*s = next
		return nil
	})
}

func toTree(s Settings) map[string]any {
	data, _ := json.Marshal(s)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree map[string]any
	_ = dec.Decode(&tree)
	return tree
}

func locate(tree map[string]any, key string) (map[string]any, string, error) {
	parts := strings.Split(key, ".")
	node := tree
	for i, p := range parts {
		v, ok := node[p]
		if !ok {
			return nil, "", fmt.Errorf("unknown setting %q; known settings: %s", key, strings.Join(SettingKeys(), ", "))
		}
		if i == len(parts)-1 {
			if _, isMap := v.(map[string]any); isMap {
				return nil, "", fmt.Errorf("unknown setting %q; known settings: %s", key, strings.Join(SettingKeys(), ", "))
			}
			return node, p, nil
		}
		next, isMap := v.(map[string]any)
		if !isMap {
			return nil, "", fmt.Errorf("unknown setting %q; known settings: %s", key, strings.Join(SettingKeys(), ", "))
		}
		node = next
	}
	return nil, "", fmt.Errorf("unknown setting %q", key)
}

func walkKeys(prefix string, node map[string]any, out *[]string) {
	for k, v := range node {
		if sub, ok := v.(map[string]any); ok {
			walkKeys(prefix+k+".", sub, out)
			continue
		}
		*out = append(*out, prefix+k)
	}
}
