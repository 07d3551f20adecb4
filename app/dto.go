package app

import (
	"strings"
	"time"

	"app/backend/connections"
	"app/backend/driver"
)

// ConnectionDTO is a saved connection as the sidebar shows it. It never carries the API
// key. The frontend mirrors it as `Connection` (frontend/src/api/types.ts).
type ConnectionDTO struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Type is the database type, e.g. "weaviate".
	Type string `json:"type"`
	Host string `json:"host"`
	Port int    `json:"port"`
	// AuthMethod is "None" or "API Key".
	AuthMethod string `json:"authMethod"`
	// SSLMode is one of the six SSL modes of the spec, e.g. "Disabled".
	SSLMode       string `json:"sslMode"`
	SkipTLSVerify bool   `json:"skipTLSVerify"`
	// ExternalAccess is "blocked", "readOnly" or "readWrite" (connections.Access*).
	ExternalAccess string `json:"externalAccess"`
	// CreatedAt is RFC 3339 in UTC.
	CreatedAt string `json:"createdAt"`
}

func toConnectionDTO(c connections.Connection) ConnectionDTO {
	s := c.Settings.Normalized()
	created := ""
	if !c.CreatedAt.IsZero() {
		created = c.CreatedAt.UTC().Format(time.RFC3339)
	}
	return ConnectionDTO{
		ID:             c.ID,
		Name:           c.Name,
		Type:           c.Type,
		Host:           s.Host,
		Port:           s.Port,
		AuthMethod:     string(s.AuthMethod),
		SSLMode:        string(s.SSLMode),
		SkipTLSVerify:  s.SkipTLSVerify,
		ExternalAccess: c.ExternalAccess,
		CreatedAt:      created,
	}
}

// PluginDTO is one plugin of Settings, Plugins (plugins.Listing).
type PluginDTO struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
	Description string `json:"description"`
	Publisher   string `json:"publisher"`
	// Installed is the version that runs ("" when none); Available the version this app
	// would install here ("" when none).
	Installed string `json:"installed"`
	Available string `json:"available"`
	// Size is the download size of Available, in bytes.
	Size         int64  `json:"size"`
	ReleaseNotes string `json:"releaseNotes"`
	// Status is "installed", "update available", "not installed", "not available for this
	// platform" or "installed, not in the registry"; Reason says why nothing is available.
	Status string `json:"status"`
	Reason string `json:"reason"`
	// FromMirror: the package's bundled mirror answered, not the registry.
	FromMirror bool `json:"fromMirror"`
}

// PluginListDTO is Settings, Plugins: the plugins, and why the registry could not be read
// ("" when it could; the installed plugins are listed all the same).
type PluginListDTO struct {
	Plugins       []PluginDTO `json:"plugins"`
	RegistryError string      `json:"registryError"`
}

// PluginOfferDTO is what the connection-type chooser shows before the form opens.
type PluginOfferDTO struct {
	Plugin      string `json:"plugin"`
	DisplayName string `json:"displayName"`
	Description string `json:"description"`
	Publisher   string `json:"publisher"`
	// Installed: the type's plugin is there, the form opens at once.
	Installed bool `json:"installed"`
	// Version is the installed version, or the one offered.
	Version      string `json:"version"`
	Size         int64  `json:"size"`
	ReleaseNotes string `json:"releaseNotes"`
	// Unavailable says why the registry has nothing for this platform ("" when it has).
	Unavailable string `json:"unavailable"`
	// FromMirror: the package's bundled mirror offers it (the registry could not be reached,
	// or none is named).
	FromMirror bool `json:"fromMirror"`
}

// PluginResultDTO says what an install or update did.
type PluginResultDTO struct {
	Plugin    string `json:"plugin"`
	Version   string `json:"version"`
	Previous  string `json:"previous"`
	Changed   bool   `json:"changed"`
	Available string `json:"available"`
}

// PluginProgressEvent is the payload of EventPluginProgress.
type PluginProgressEvent struct {
	Plugin  string `json:"plugin"`
	Version string `json:"version"`
	Done    int64  `json:"done"`
	Total   int64  `json:"total"`
	// ConnectionID is the saved connection waiting for the plugin ("" when none).
	ConnectionID string `json:"connectionId"`
	// FromMirror: the package's bundled mirror serves the download (the registry could not be
	// reached, or none is named).
	FromMirror bool `json:"fromMirror"`
}

// ConnectionFormDTO is the connection form (SPEC A "Connection settings"): every field but
// the API key, which goes one way only (Save, Test) and is never sent back.
type ConnectionFormDTO struct {
	// ID is "" for a new connection.
	ID            string `json:"id"`
	Name          string `json:"name"`
	Type          string `json:"type"`
	Host          string `json:"host"`
	Port          int    `json:"port"`
	AuthMethod    string `json:"authMethod"`
	SSLMode       string `json:"sslMode"`
	SkipTLSVerify bool   `json:"skipTLSVerify"`
	CAFile        string `json:"caFile"`
	// GRPCHost and GRPCPort reach the node's gRPC API ("" and 0: the driver's defaults).
	GRPCHost string `json:"grpcHost"`
	GRPCPort int    `json:"grpcPort"`
	// ExternalAccess ("blocked", "readOnly", "readWrite") and AIPolicy ("alwaysAsk",
	// "askForWrites", "neverForWrites") decide what AI clients may do with it.
	ExternalAccess string `json:"externalAccess"`
	AIPolicy       string `json:"aiPolicy"`
	// HasAPIKey tells that a key is saved in the keyring (read-only).
	HasAPIKey bool `json:"hasAPIKey"`
}

func (f ConnectionFormDTO) connection() connections.Connection {
	return connections.Connection{
		ID: f.ID, Name: f.Name, Type: f.Type, ExternalAccess: f.ExternalAccess, AIPolicy: f.AIPolicy,
		Settings: driver.Settings{
			Host: strings.TrimSpace(f.Host), Port: f.Port, AuthMethod: driver.AuthMethod(f.AuthMethod),
			SSLMode: driver.SSLMode(f.SSLMode), SkipTLSVerify: f.SkipTLSVerify, CAFile: strings.TrimSpace(f.CAFile),
			GRPCHost: strings.TrimSpace(f.GRPCHost), GRPCPort: f.GRPCPort,
		},
	}
}

func toFormDTO(c connections.Connection) ConnectionFormDTO {
	s := c.Settings.Normalized()
	return ConnectionFormDTO{
		ID: c.ID, Name: c.Name, Type: c.Type, Host: s.Host, Port: s.Port, AuthMethod: string(s.AuthMethod),
		SSLMode: string(s.SSLMode), SkipTLSVerify: s.SkipTLSVerify, CAFile: s.CAFile, GRPCHost: s.GRPCHost, GRPCPort: s.GRPCPort,
		ExternalAccess: c.ExternalAccess, AIPolicy: c.AIPolicy, HasAPIKey: s.AuthMethod == driver.AuthAPIKey,
	}
}

// TestResultDTO is a successful Test: the server's version.
type TestResultDTO struct {
	ServerVersion string `json:"serverVersion"`
	// Paths are each way to the database, tested separately (Weaviate: REST, GraphQL,
	// gRPC); empty when the driver reports the connection as a whole.
	Paths []PathDTO `json:"paths"`
}

// PathDTO is one way to the database and how it answered a Test.
type PathDTO struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// TokenDTO is one MCP token in Settings (never the token itself).
type TokenDTO struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Level string `json:"level"`
	// Connections are the ids the token is limited to; empty means every connection.
	Connections []string `json:"connections"`
	// ExpiresAt, CreatedAt and LastUsedAt are RFC 3339 in UTC ("" when none).
	ExpiresAt  string `json:"expiresAt"`
	CreatedAt  string `json:"createdAt"`
	LastUsedAt string `json:"lastUsedAt"`
	Expired    bool   `json:"expired"`
}

// TokenRequestDTO asks for a token: a unique name, a level (readOnly, readWrite,
// fullAccess), the connection ids it is limited to (empty: all) and an expiry as
// `app token create --expires` takes it ("" or "never" for none).
type TokenRequestDTO struct {
	Name        string   `json:"name"`
	Level       string   `json:"level"`
	Connections []string `json:"connections"`
	Expires     string   `json:"expires"`
}

// CreatedTokenDTO is a new token with its secret, shown once.
type CreatedTokenDTO struct {
	Token  TokenDTO `json:"token"`
	Secret string   `json:"secret"`
}

// MCPSettingsDTO is Settings, MCP server: the mcp.* settings and the server's status.
type MCPSettingsDTO struct {
	Enabled             bool `json:"enabled"`
	Port                int  `json:"port"`
	RequireAuth         bool `json:"requireAuth"`
	ExternalAccess      bool `json:"externalAccess"`
	DefaultRowLimit     int  `json:"defaultRowLimit"`
	MaxRowLimit         int  `json:"maxRowLimit"`
	QueryTimeoutSeconds int  `json:"queryTimeoutSeconds"`
	RateLimitPerMinute  int  `json:"rateLimitPerMinute"`
	// BoundPort is the port the server listens on now (0 when it does not; the command
	// line's --mcp-port wins over Port).
	BoundPort int `json:"boundPort"`
	// Status is the status line, e.g. "Running on 127.0.0.1:23817"; Error why an enabled
	// server is not running ("" when none).
	Status string `json:"status"`
	Error  string `json:"error"`
	// PortNotice says that the server fell back from a taken port ("" when it did not).
	PortNotice string `json:"portNotice"`
	// StaleClients are the AI clients whose config files point at another port than the
	// running server's: they cannot reach it until re-paired (RepairClients).
	StaleClients []StaleClientDTO `json:"staleClients"`
}

// StaleClientDTO is a client whose config file points at another port (pairing.Stale).
type StaleClientDTO struct {
	Client string `json:"client"`
	Title  string `json:"title"`
	File   string `json:"file"`
	URL    string `json:"url"`
}

// RepairResultDTO is what RepairClients did: each client re-pointed (with its config file's
// backup) or why not.
type RepairResultDTO struct {
	Repaired []RepairedClientDTO `json:"repaired"`
	Settings MCPSettingsDTO      `json:"settings"`
}

// RepairedClientDTO is one client RepairClients tried.
type RepairedClientDTO struct {
	Title  string `json:"title"`
	File   string `json:"file"`
	Backup string `json:"backup"`
	Error  string `json:"error"`
}

// ClientDTO is one connected client (activity.Client): times RFC 3339 in UTC.
type ClientDTO struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Principal is "token:<id>" or "anonymous"; TokenName and Level describe the token.
	Principal string `json:"principal"`
	TokenName string `json:"tokenName"`
	Level     string `json:"level"`
	FirstSeen string `json:"firstSeen"`
	LastSeen  string `json:"lastSeen"`
	Requests  int64  `json:"requests"`
	Errors    int64  `json:"errors"`
}

// ActivityQueryDTO chooses activity entries: exact client, token (name or principal),
// connection id and outcome ("ok", a code, or "error" for every failure), a time range (RFC
// 3339 or a duration ago such as 24h), a search text, and the page (offset, limit).
type ActivityQueryDTO struct {
	Client     string `json:"client"`
	Token      string `json:"token"`
	Connection string `json:"connection"`
	Outcome    string `json:"outcome"`
	Since      string `json:"since"`
	Until      string `json:"until"`
	Search     string `json:"search"`
	Offset     int    `json:"offset"`
	Limit      int    `json:"limit"`
}

// ActivityEntryDTO is one recorded MCP request (activity.Entry); Time is RFC 3339 in UTC.
type ActivityEntryDTO struct {
	ID            int64  `json:"id"`
	Time          string `json:"time"`
	ClientName    string `json:"clientName"`
	ClientVersion string `json:"clientVersion"`
	Principal     string `json:"principal"`
	TokenName     string `json:"tokenName"`
	Level         string `json:"level"`
	Method        string `json:"method"`
	Name          string `json:"name"`
	Connection    string `json:"connection"`
	Statement     string `json:"statement"`
	Outcome       string `json:"outcome"`
	DurationMS    int64  `json:"durationMs"`
	PrevHash      string `json:"prevHash"`
	// Trace is the request's W3C traceparent, "" when it sent none.
	Trace string `json:"trace"`
	Hash  string `json:"hash"`
}

// ActivityPageDTO is a page of entries, newest first, and the total the query chooses.
type ActivityPageDTO struct {
	Entries []ActivityEntryDTO `json:"entries"`
	Total   int                `json:"total"`
	Offset  int                `json:"offset"`
}

// VerificationDTO is the chain check: intact, or the first broken link.
type VerificationDTO struct {
	Entries  int    `json:"entries"`
	AnchorID int64  `json:"anchorId"`
	Intact   bool   `json:"intact"`
	BrokenID int64  `json:"brokenId"`
	Reason   string `json:"reason"`
}

// PairingClientDTO is an AI client "Connect a client" offers.
type PairingClientDTO struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// File is its user config file ("" when the app knows none); Unsupported why it cannot
	// be connected yet ("" when it can).
	File        string `json:"file"`
	Unsupported string `json:"unsupported"`
	// StdioOnly: the client only launches local programs, so it gets the stdio bridge.
	StdioOnly bool `json:"stdioOnly"`
}

// PairingRequestDTO asks to connect a client: the token's level, connection ids (empty: all)
// and expiry, and whether to write the client's config file.
type PairingRequestDTO struct {
	Client      string   `json:"client"`
	Level       string   `json:"level"`
	Connections []string `json:"connections"`
	Expires     string   `json:"expires"`
	Write       bool     `json:"write"`
	// Stdio asks for the stdio bridge app-mcp instead of the HTTP endpoint.
	Stdio bool `json:"stdio"`
}

// PairingResultDTO is the client's configuration (JSON, holding the new token), the token's
// description, and the file written with its backup; Declined when the user said No.
type PairingResultDTO struct {
	JSON     string   `json:"json"`
	File     string   `json:"file"`
	Note     string   `json:"note"`
	Token    TokenDTO `json:"token"`
	Written  string   `json:"written"`
	Backup   string   `json:"backup"`
	Declined bool     `json:"declined"`
}
