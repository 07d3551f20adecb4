// Package pairing produces the configuration that connects an AI client to the app's MCP
// endpoint ("Connect a client", issue 11): for each client it knows, the JSON its own config
// file takes, where that file lives, and a merge that writes it there without losing the
// client's other servers, after a backup. The configuration is either the HTTP endpoint with
// the Authorization header, or the stdio bridge app-mcp as a command with the token in its
// environment (APP_MCP_TOKEN): clients that only launch local programs (Claude Desktop) get
// the bridge; the others get the endpoint unless the bridge is asked for.
package pairing

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"app/backend/osplaces"
)

// ServerName is the name the app's server gets in a client's config.
const ServerName = "app"

// Client is an AI client the app can pair with.
type Client struct {
	// ID is what `app client config` takes.
	ID    string
	Title string
	// Format is the config file's format (FormatJSON when empty).
	Format string
	// Root is the top-level member that maps server names to servers ("mcpServers").
	Root string
	// entry is the server's entry for an HTTP endpoint with headers; nil: no HTTP support.
	entry func(url string, headers map[string]string) map[string]any
	// stdio is the server's entry for a local command (app-mcp); env is nil when the entry
	// holds no token (a project's shared file).
	stdio func(command string, args []string, env map[string]string) map[string]any
	// file is the client's config file under home and the OS config dir, or under the
	// project directory for a Project client ("" if none).
	file func(home, configDir string) string
	// Project: the config file lives in a project's directory and is shared with whoever
	// shares the project, so it holds no token: it starts the stdio bridge, which uses the
	// person's own app and its readOnly bridge token.
	Project bool
	// Note is said with the snippet (how the client picks it up).
	Note string
	// Proof says which check proves the file the app writes for this client.
	Proof string
	// Socket: the client reaches an HTTP endpoint over a Unix socket (unix:///path#/mcp).
	Socket bool
	// Unsupported says why the client cannot be paired yet ("" when it can).
	Unsupported string
}

// httpEntry is the common shape: {"type": "http", "url": ..., "headers": {...}}.
func httpEntry(url string, headers map[string]string) map[string]any {
	return map[string]any{"type": "http", "url": url, "headers": headers}
}

// urlEntry is Cursor's notation, which LM Studio and Zed follow: {"url": ..., "headers": {...}}.
func urlEntry(url string, headers map[string]string) map[string]any {
	return map[string]any{"url": url, "headers": headers}
}

// commandEntry is the common stdio shape: {"command": ..., "args": [...], "env": {...}}.
func commandEntry(command string, args []string, env map[string]string) map[string]any {
	e := map[string]any{"command": command, "args": args}
	if env != nil {
		e["env"] = env
	}
	return e
}

// typedCommandEntry is commandEntry with "type": "stdio" (Claude Code, VS Code).
func typedCommandEntry(command string, args []string, env map[string]string) map[string]any {
	e := commandEntry(command, args, env)
	e["type"] = "stdio"
	return e
}

// withTools adds Copilot CLI's "tools": ["*"] (every tool of the server may be called; the
// app's own token level and approvals still decide what runs).
func withTools(e map[string]any) map[string]any {
	e["tools"] = []string{"*"}
	return e
}

// gooseEntry is a Goose extension: its config.yaml keeps name, type and description in the
// entry, and a remote server's address in uri.
func gooseEntry(typ string, e map[string]any) map[string]any {
	e["enabled"], e["name"], e["type"] = true, ServerName, typ
	e["description"] = "App: your database connections through App's local MCP endpoint"
	e["timeout"] = 300
	return e
}

// The checks that prove each file, said in Settings and `app client list`.
const (
	proofClaude  = "claude mcp list (Claude Code) connects with the file the app writes, over HTTP and through app-mcp, and reports a revoked token as failed"
	proofProject = "claude mcp get (Claude Code) reads the project's .mcp.json the app writes, and claude mcp list connects once the project's server is approved"
	proofDesktop = "the bundle of make dist passes mcpb validate and mcpb pack; the config file's command runs under the MCP Go SDK as Claude Desktop runs it"
	proofCodex   = "codex mcp get app --json (Codex) reads the entry back as the app wrote it"
	proofGemini  = "gemini mcp list (Gemini CLI) connects with the file the app writes"
	proofCopilot = "copilot mcp get app --json (GitHub Copilot CLI) reads the entry back as the app wrote it"
	proofSchema  = "its documented schema (no program of it runs here)"
	proofOther   = "the MCP Inspector CLI runs the file the app writes"
)

// Clients is every client, in the order the CLI and Settings list them.
var Clients = []Client{
	{ID: "claude-code", Title: "Claude Code", Root: "mcpServers", entry: httpEntry, stdio: typedCommandEntry,
		file:  func(home, _ string) string { return filepath.Join(home, ".claude.json") },
		Note:  "Claude Code reads ~/.claude.json at its start; claude mcp list shows the server connected.",
		Proof: proofClaude},
	{ID: "claude-code-project", Title: "Claude Code (this project)", Root: "mcpServers", stdio: typedCommandEntry, Project: true,
		file: func(project, _ string) string { return filepath.Join(project, ".mcp.json") },
		Note: "The project's .mcp.json is shared with the project, so it holds no token: it starts app-mcp, which reaches " +
			"each person's own running app with its readOnly access. Claude Code asks once to approve the project's server.",
		Proof: proofProject},
	{ID: "claude-desktop", Title: "Claude Desktop", Root: "mcpServers", stdio: commandEntry,
		file: func(home, _ string) string {
			return filepath.Join(userConfigDir(home), "Claude", "claude_desktop_config.json")
		},
		Note:  "Claude Desktop starts the stdio bridge app-mcp itself; quit and reopen Claude Desktop to load it. The app's packages also ship app.mcpb, an extension Claude Desktop installs with a double-click; it asks for the token.",
		Proof: proofDesktop},
	{ID: "codex", Title: "Codex", Format: FormatTOML, Root: "mcp_servers", stdio: commandEntry,
		file: func(home, _ string) string {
			if d := os.Getenv("CODEX_HOME"); d != "" {
				return filepath.Join(d, "config.toml")
			}
			return filepath.Join(home, ".codex", "config.toml")
		},
		Note: "Codex gets the stdio bridge app-mcp with the token in its env table: Codex will not take a literal token " +
			"for an HTTP server, only the name of an environment variable, which would have to be set in every shell and " +
			"launcher that starts Codex.",
		Proof: proofCodex},
	{ID: "gemini", Title: "Gemini CLI", Root: "mcpServers", stdio: commandEntry,
		entry: func(url string, h map[string]string) map[string]any {
			return map[string]any{"httpUrl": url, "headers": h}
		},
		file: func(home, _ string) string { return filepath.Join(home, ".gemini", "settings.json") },
		Note: "Gemini CLI loads servers only in folders you trust. The app never writes trust: true, which would skip " +
			"Gemini's confirmation of every tool call.",
		Proof: proofGemini},
	{ID: "copilot", Title: "GitHub Copilot CLI", Root: "mcpServers",
		entry: func(url string, h map[string]string) map[string]any { return withTools(httpEntry(url, h)) },
		stdio: func(c string, a []string, env map[string]string) map[string]any {
			return withTools(typedCommandEntry(c, a, env))
		},
		file: func(home, _ string) string {
			if d := os.Getenv("COPILOT_HOME"); d != "" {
				return filepath.Join(d, "mcp-config.json")
			}
			return filepath.Join(home, ".copilot", "mcp-config.json")
		},
		Note:  "Copilot CLI reads ~/.copilot/mcp-config.json at its start; VS Code's Copilot chat reads the same file.",
		Proof: proofCopilot},
	{ID: "vscode", Title: "VS Code", Root: "servers", entry: httpEntry, stdio: typedCommandEntry, Socket: true,
		file:  func(_, cfg string) string { return filepath.Join(cfg, "Code", "User", "mcp.json") },
		Note:  "VS Code's user mcp.json; start the server from the MCP: List Servers command.",
		Proof: proofSchema},
	{ID: "cursor", Title: "Cursor", Root: "mcpServers", stdio: commandEntry, entry: urlEntry,
		file:  func(home, _ string) string { return filepath.Join(home, ".cursor", "mcp.json") },
		Note:  "Cursor reloads the file by itself; the server appears under Settings, MCP.",
		Proof: proofSchema},
	{ID: "windsurf", Title: "Windsurf", Root: "mcpServers", stdio: commandEntry,
		entry: func(url string, h map[string]string) map[string]any {
			return map[string]any{"serverUrl": url, "headers": h}
		},
		file:  func(home, _ string) string { return filepath.Join(home, ".codeium", "windsurf", "mcp_config.json") },
		Note:  "Refresh the MCP servers in Windsurf's Cascade panel.",
		Proof: proofSchema},
	{ID: "zed", Title: "Zed", Root: "context_servers", entry: urlEntry, stdio: commandEntry,
		file:  func(home, _ string) string { return filepath.Join(home, ".config", "zed", "settings.json") },
		Note:  "Zed's settings.json keeps its comments; the server appears in the Agent Panel's settings.",
		Proof: proofSchema},
	{ID: "goose", Title: "Goose", Format: FormatYAML, Root: "extensions",
		entry: func(url string, h map[string]string) map[string]any {
			return gooseEntry("streamable_http", map[string]any{"uri": url, "headers": h, "envs": map[string]string{}, "env_keys": []string{}})
		},
		stdio: func(c string, a []string, env map[string]string) map[string]any {
			if env == nil {
				env = map[string]string{}
			}
			return gooseEntry("stdio", map[string]any{"cmd": c, "args": a, "envs": env, "env_keys": []string{}})
		},
		file: func(home, _ string) string {
			if runtime.GOOS == "windows" {
				return filepath.Join(os.Getenv("APPDATA"), "Block", "goose", "config", "config.yaml")
			}
			return filepath.Join(home, ".config", "goose", "config.yaml")
		},
		Note:  "Goose's config.yaml keeps its comments; restart Goose to load the extension.",
		Proof: proofSchema},
	{ID: "lmstudio", Title: "LM Studio", Root: "mcpServers", entry: urlEntry, stdio: commandEntry,
		file:  func(home, _ string) string { return filepath.Join(home, ".lmstudio", "mcp.json") },
		Note:  "LM Studio reloads mcp.json by itself; the server appears in the Program tab.",
		Proof: proofSchema},
	{ID: "other", Title: "Other (a common mcp.json)", Root: "mcpServers", entry: httpEntry, stdio: commandEntry,
		Note:  "The common mcp.json shape; save it where your client reads its servers.",
		Proof: proofOther},
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
	// Format is the config file's format ("json", "toml", "yaml") and Text the configuration
	// in it, {Root: {"app": Entry}}, to show and to paste.
	Format string `json:"format"`
	Text   string `json:"text"`
	// Root and Entry are the configuration as data.
	Root  string         `json:"root"`
	Entry map[string]any `json:"entry"`
	// File is the client's config file ("" when it has none the app knows).
	File string `json:"file"`
	Note string `json:"note"`
	// Tokenless: the configuration holds no token (a project's shared file).
	Tokenless bool `json:"tokenless,omitempty"`
}

// Doc is the configuration as the document {Root: {"app": Entry}}.
func (s Snippet) Doc() map[string]any {
	return map[string]any{s.Root: map[string]any{ServerName: s.Entry}}
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
	// Project is the project directory of a Project client ("" for the working directory).
	Project string
	// Socket is the app's Unix socket, to name instead of URL for a client that takes one.
	Socket string
}

// StdioOnly tells whether the client only launches local programs (it gets app-mcp).
func (c Client) StdioOnly() bool { return c.entry == nil }

// NeedsToken tells whether the client's configuration carries a token (a project's shared
// file does not).
func (c Client) NeedsToken() bool { return !c.Project }

// FormatName is the file format's name for a person ("JSON", "TOML", "YAML").
func (c Client) FormatName() string { return formatOf(c.Format).name() }

// BridgePath is the app-mcp program beside the running binary (where the app ships it), or
// "app-mcp" to be found on PATH.
func BridgePath() string {
	name := osplaces.Current().Bridge
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return name
}

// Config is the snippet of a client for an endpoint: the HTTP endpoint with the
// Authorization header, or the app-mcp command with the token in its environment. A Project
// client gets app-mcp by name with no token and no config dir: the file is shared.
func Config(c Client, e Endpoint) (Snippet, error) {
	if c.Unsupported != "" {
		return Snippet{}, errors.New(c.Unsupported)
	}
	var entry map[string]any
	switch {
	case c.Project:
		entry = c.stdio(osplaces.Current().Bridge, []string{}, nil)
	case e.Stdio || c.StdioOnly():
		if c.stdio == nil {
			return Snippet{}, fmt.Errorf("%s takes no local command; leave out the stdio bridge", c.Title)
		}
		if e.Bridge == "" {
			return Snippet{}, errors.New("the path of app-mcp is not known")
		}
		args := []string{}
		if e.ConfigDir != "" {
			args = []string{"--config-dir", e.ConfigDir}
		}
		entry = c.stdio(e.Bridge, args, map[string]string{"APP_MCP_TOKEN": e.Token})
	case e.Socket != "":
		if !c.Socket || c.entry == nil {
			return Snippet{}, fmt.Errorf("%s takes no Unix socket; leave out the socket", c.Title)
		}
		entry = c.entry("unix://"+filepath.ToSlash(e.Socket)+"#/mcp", map[string]string{"Authorization": "Bearer " + e.Token})
	default:
		entry = c.entry(e.URL, map[string]string{"Authorization": "Bearer " + e.Token})
	}
	f := formatOf(c.Format)
	text, err := f.render(c.Root, ServerName, entry)
	if err != nil {
		return Snippet{}, err
	}
	// Round trip through JSON: Entry is plain data ([]any, map[string]any), as a reader of the
	// file gets it.
	var plain map[string]any
	if b, err := json.Marshal(entry); err == nil {
		_ = json.Unmarshal(b, &plain)
	}
	return Snippet{Client: c.ID, Title: c.Title, Format: formatName(c.Format), Text: text, Root: c.Root, Entry: plain,
		File: c.ConfigFileIn(e.Project), Tokenless: c.Project,
		Note: strings.ReplaceAll(strings.ReplaceAll(c.Note, "URL", e.URL), "TOKEN", e.Token)}, nil
}

func formatName(f string) string {
	if f == "" {
		return FormatJSON
	}
	return f
}

// ConfigFile is the client's user config file on this machine ("" when the app knows none);
// for a Project client, the file in the working directory.
func (c Client) ConfigFile() string { return c.ConfigFileIn("") }

// ConfigFileIn is ConfigFile, with a Project client's file in project ("" for the working
// directory).
func (c Client) ConfigFileIn(project string) string {
	if c.file == nil {
		return ""
	}
	if c.Project {
		if project == "" {
			wd, err := os.Getwd()
			if err != nil {
				return ""
			}
			project = wd
		}
		abs, err := filepath.Abs(project)
		if err != nil {
			return ""
		}
		return c.file(abs, "")
	}
	home, _ := os.UserHomeDir()
	if home == "" {
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
