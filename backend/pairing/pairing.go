// Package pairing produces the configuration that connects an AI client to the app's MCP
// endpoint ("Connect a client", issue 11): for each client it knows, the JSON its own config
// file takes, where that file lives, and a merge that writes it there without losing the
// client's other servers, after a backup. The configuration is either the HTTP endpoint with
// the Authorization header, or the stdio bridge app-mcp as a command with the token in its
// environment (APP_MCP_TOKEN): clients that only launch local programs (Claude Desktop) get
// the bridge; the others get the endpoint unless the bridge is asked for.
package pairing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	neturl "net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"app/backend/layout"
)

// ServerName is the name the app's server gets in a client's config.
const ServerName = "app"

// Client is an AI client the app can pair with.
type Client struct {
	// ID is what `app client config` takes.
	ID    string
	Title string
	// Root is the top-level member that maps server names to servers ("mcpServers").
	Root string
	// entry is the server's entry for an HTTP endpoint with headers; nil: no HTTP support.
	entry func(url string, headers map[string]string) map[string]any
	// stdio is the server's entry for a local command (app-mcp).
	stdio func(command string, args []string, env map[string]string) map[string]any
	// file is the client's user config file under home and the OS config dir ("" if none).
	file func(home, configDir string) string
	// Note is said with the snippet (how the client picks it up).
	Note string
	// Unsupported says why the client cannot be paired yet ("" when it can).
	Unsupported string
}

// httpEntry is the common shape: {"type": "http", "url": ..., "headers": {...}}.
func httpEntry(url string, headers map[string]string) map[string]any {
	return map[string]any{"type": "http", "url": url, "headers": headers}
}

// commandEntry is the common stdio shape: {"command": ..., "args": [...], "env": {...}}.
func commandEntry(command string, args []string, env map[string]string) map[string]any {
	return map[string]any{"command": command, "args": args, "env": env}
}

// typedCommandEntry is commandEntry with "type": "stdio" (Claude Code, VS Code).
func typedCommandEntry(command string, args []string, env map[string]string) map[string]any {
	e := commandEntry(command, args, env)
	e["type"] = "stdio"
	return e
}

// Clients is every client, in the order the CLI and Settings list them.
var Clients = []Client{
	{ID: "claude-code", Title: "Claude Code", Root: "mcpServers", entry: httpEntry, stdio: typedCommandEntry,
		file: func(home, _ string) string { return filepath.Join(home, ".claude.json") },
		Note: "or run: claude mcp add --transport http app URL --header \"Authorization: Bearer TOKEN\""},
	{ID: "cursor", Title: "Cursor", Root: "mcpServers", stdio: commandEntry,
		entry: func(url string, h map[string]string) map[string]any { return map[string]any{"url": url, "headers": h} },
		file:  func(home, _ string) string { return filepath.Join(home, ".cursor", "mcp.json") },
		Note:  "Cursor reloads the file by itself; the server appears under Settings, MCP."},
	{ID: "vscode", Title: "VS Code", Root: "servers", entry: httpEntry, stdio: typedCommandEntry,
		file: func(_, cfg string) string { return filepath.Join(cfg, "Code", "User", "mcp.json") },
		Note: "VS Code's user mcp.json; start the server from the MCP: List Servers command."},
	{ID: "windsurf", Title: "Windsurf", Root: "mcpServers", stdio: commandEntry,
		entry: func(url string, h map[string]string) map[string]any {
			return map[string]any{"serverUrl": url, "headers": h}
		},
		file: func(home, _ string) string { return filepath.Join(home, ".codeium", "windsurf", "mcp_config.json") },
		Note: "Refresh the MCP servers in Windsurf's Cascade panel."},
	{ID: "claude-desktop", Title: "Claude Desktop", Root: "mcpServers", stdio: commandEntry,
		file: func(home, _ string) string {
			return filepath.Join(userConfigDir(home), "Claude", "claude_desktop_config.json")
		},
		Note: "Claude Desktop starts the stdio bridge app-mcp itself; quit and reopen Claude Desktop to load it."},
	{ID: "other", Title: "Other (an mcp.json with mcpServers, e.g. the MCP Inspector)", Root: "mcpServers", entry: httpEntry, stdio: commandEntry,
		Note: "The common mcp.json shape; save it where your client reads its servers."},
}

// Find returns the client with this id.
func Find(id string) (Client, error) {
	var ids []string
	for _, c := range Clients {
		if c.ID == id {
			return c, nil
		}
		ids = append(ids, c.ID)
	}
	return Client{}, fmt.Errorf("unknown client %q: choose one of %s", id, strings.Join(ids, ", "))
}

// Snippet is the configuration of one client.
type Snippet struct {
	Client string `json:"client"`
	Title  string `json:"title"`
	// JSON is the config document to merge: {Root: {"app": entry}}, indented.
	JSON string `json:"json"`
	// File is the client's user config file ("" when it has none the app knows).
	File string `json:"file"`
	Note string `json:"note"`
}

// Endpoint is what a configuration points at.
type Endpoint struct {
	// URL is the HTTP endpoint and Token the bearer token.
	URL, Token string
	// Stdio asks for the stdio bridge even where the client also takes the HTTP endpoint.
	Stdio bool
	// Bridge is the app-mcp program (BridgePath) and ConfigDir the app's config dir, which the
	// bridge is told so it finds the handshake file of this app.
	Bridge, ConfigDir string
}

// StdioOnly tells whether the client only launches local programs (it gets app-mcp).
func (c Client) StdioOnly() bool { return c.entry == nil }

// BridgePath is the app-mcp program beside the running binary (where the app ships it), or
// "app-mcp" to be found on PATH.
func BridgePath() string {
	name := layout.Current().Bridge
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return name
}

// Config is the snippet of a client for an endpoint: the HTTP endpoint with the
// Authorization header, or the app-mcp command with the token in its environment.
func Config(c Client, e Endpoint) (Snippet, error) {
	if c.Unsupported != "" {
		return Snippet{}, errors.New(c.Unsupported)
	}
	var entry map[string]any
	if e.Stdio || c.StdioOnly() {
		if c.stdio == nil {
			return Snippet{}, fmt.Errorf("%s takes no local command; leave out the stdio bridge", c.Title)
		}
		if e.Bridge == "" {
			return Snippet{}, errors.New("the path of app-mcp is not known")
		}
		var args []string
		if e.ConfigDir != "" {
			args = []string{"--config-dir", e.ConfigDir}
		}
		entry = c.stdio(e.Bridge, args, map[string]string{"APP_MCP_TOKEN": e.Token})
	} else {
		entry = c.entry(e.URL, map[string]string{"Authorization": "Bearer " + e.Token})
	}
	url, token := e.URL, e.Token
	doc := map[string]any{c.Root: map[string]any{ServerName: entry}}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return Snippet{}, err
	}
	s := Snippet{Client: c.ID, Title: c.Title, JSON: string(b) + "\n", File: c.ConfigFile(),
		Note: strings.ReplaceAll(strings.ReplaceAll(c.Note, "URL", url), "TOKEN", token)}
	return s, nil
}

// ConfigFile is the client's user config file on this machine ("" when the app knows none).
func (c Client) ConfigFile() string {
	home, _ := os.UserHomeDir()
	if c.file == nil || home == "" {
		return ""
	}
	return c.file(home, userConfigDir(home))
}

// userConfigDir is where per-user application config lives (VS Code's "User" folder sits in it).
func userConfigDir(home string) string {
	if d, err := os.UserConfigDir(); err == nil {
		return d
	}
	if runtime.GOOS == "darwin" {
		return filepath.Join(home, "Library", "Application Support")
	}
	return filepath.Join(home, ".config")
}

// Write merges the snippet's server into the config file at path: the file's other members
// and other servers stay as they are, the app's entry is replaced. An existing file is copied
// to <path>.bak-<time> first, and the new content replaces it in one rename (mode 0600: it
// holds a token). It returns the backup's path ("" when there was no file).
func Write(path string, s Snippet, now time.Time) (string, error) {
	var add map[string]map[string]any
	if err := json.Unmarshal([]byte(s.JSON), &add); err != nil || len(add) != 1 {
		return "", fmt.Errorf("the snippet is not a config document: %v", err)
	}
	doc := map[string]any{}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return "", err
	case len(bytes.TrimSpace(old)) > 0:
		if err := json.Unmarshal(old, &doc); err != nil {
			return "", fmt.Errorf("%s is not JSON (%v): nothing was changed; add the snippet by hand", path, err)
		}
	}
	for root, servers := range add {
		cur, ok := doc[root].(map[string]any)
		if !ok {
			if doc[root] != nil {
				return "", fmt.Errorf("%s: %q is not an object: nothing was changed; add the snippet by hand", path, root)
			}
			cur = map[string]any{}
		}
		for name, entry := range servers {
			cur[name] = entry
		}
		doc[root] = cur
	}
	return writeDoc(path, old, doc, now)
}

// writeDoc writes doc to path as indented JSON, after copying the old content (when there
// was a file) to <path>.bak-<time>; the new content replaces the file in one rename, mode
// 0600 (it holds a token). It returns the backup's path.
func writeDoc(path string, old []byte, doc map[string]any, now time.Time) (string, error) {
	b, err := json.MarshalIndent(doc, "", "  ") // map keys sorted: a stable file
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	backup := ""
	if old != nil {
		backup = fmt.Sprintf("%s.bak-%s", path, now.UTC().Format("20060102T150405Z"))
		if err := os.WriteFile(backup, old, 0o600); err != nil {
			return "", fmt.Errorf("backup %s: %w", backup, err)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".app-pairing-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return "", err
	}
	return backup, os.Rename(tmp.Name(), path)
}

// Stale is a client whose config file points the app's server at an HTTP URL on this machine
// with another port than the one the server runs on: after the server fell back from a taken
// port (issue 25, item 10), or after the port setting changed. The stdio bridge finds the
// port in the handshake file and is never stale.
type Stale struct {
	Client string `json:"client"`
	Title  string `json:"title"`
	File   string `json:"file"`
	URL    string `json:"url"`
}

// urlKeys are the members that hold the server's URL in the clients' entries (Windsurf's is
// serverUrl).
var urlKeys = []string{"url", "serverUrl"}

// FindStale lists the known clients whose config file names the app's server at a loopback
// URL whose port is not port.
func FindStale(port int) []Stale {
	var out []Stale
	for _, c := range Clients {
		path := c.ConfigFile()
		if c.entry == nil || path == "" {
			continue
		}
		_, entry, key, err := readEntry(path, c.Root)
		if err != nil || key == "" {
			continue
		}
		raw, _ := entry[key].(string)
		if p, ok := loopbackPort(raw); ok && p != port {
			out = append(out, Stale{Client: c.ID, Title: c.Title, File: path, URL: raw})
		}
	}
	return out
}

// Repoint changes the port of the app's URL in a stale client's config file to port, keeping
// everything else (the token in its headers, other servers), with a backup as Write keeps.
func Repoint(s Stale, port int, now time.Time) (backup string, err error) {
	c, err := Find(s.Client)
	if err != nil {
		return "", err
	}
	doc, entry, key, err := readEntry(s.File, c.Root)
	if err != nil {
		return "", err
	}
	if key == "" {
		return "", fmt.Errorf("%s no longer names the %q server: nothing was changed", s.File, ServerName)
	}
	raw, _ := entry[key].(string)
	u, err := neturl.Parse(raw)
	if _, ok := loopbackPort(raw); err != nil || !ok {
		return "", fmt.Errorf("%s: the %q server's URL %q is not on this machine: nothing was changed", s.File, ServerName, raw)
	}
	u.Host = net.JoinHostPort(u.Hostname(), strconv.Itoa(port))
	entry[key] = u.String()
	old, err := os.ReadFile(s.File)
	if err != nil {
		return "", err
	}
	return writeDoc(s.File, old, doc, now)
}

// Repaired is what RepairAll did for one client: the backup of its config file, or why it
// was left alone.
type Repaired struct {
	Title  string `json:"title"`
	File   string `json:"file"`
	Backup string `json:"backup,omitempty"`
	Error  string `json:"error,omitempty"`
}

// RepairAll re-points every stale client at port: the one rule behind the window's "Re-pair"
// button and `app client repair`.
func RepairAll(port int, now time.Time) []Repaired {
	out := []Repaired{}
	for _, s := range FindStale(port) {
		r := Repaired{Title: s.Title, File: s.File}
		if b, err := Repoint(s, port, now); err != nil {
			r.Error = err.Error()
		} else {
			r.Backup = b
		}
		out = append(out, r)
	}
	return out
}

// readEntry reads a client config file and finds the app's entry under root and the member
// holding its URL ("" when the entry has none, e.g. a stdio entry).
func readEntry(path, root string) (doc, entry map[string]any, urlKey string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, "", err
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, nil, "", fmt.Errorf("%s is not JSON (%v)", path, err)
	}
	servers, _ := doc[root].(map[string]any)
	entry, _ = servers[ServerName].(map[string]any)
	if entry == nil {
		return doc, nil, "", nil
	}
	for _, k := range urlKeys {
		if _, ok := entry[k].(string); ok {
			return doc, entry, k, nil
		}
	}
	return doc, entry, "", nil
}

// loopbackPort is the port of an http URL on 127.0.0.1, ::1 or localhost.
func loopbackPort(raw string) (int, bool) {
	u, err := neturl.Parse(raw)
	if err != nil || u.Scheme != "http" {
		return 0, false
	}
	switch u.Hostname() {
	case "127.0.0.1", "::1", "localhost":
	default:
		return 0, false
	}
	p, err := strconv.Atoi(u.Port())
	return p, err == nil
}
