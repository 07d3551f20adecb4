package dto

import (
	"fmt"
	"strings"
	"time"

	"app/backend/activity"
	"app/backend/auth"
	"app/backend/integrity"
)

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

// ConnectedClientDTO is one connected client (activity.Client): times RFC 3339 in UTC.
type ConnectedClientDTO struct {
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

// ChainCheckDTO is the chain check: intact, or the first broken link.
type ChainCheckDTO struct {
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
	// File is its user config file ("" when the app knows none, or for a project's file, which
	// lives in the project folder the person names); Unsupported why it cannot be connected
	// yet ("" when it can).
	File        string `json:"file"`
	Unsupported string `json:"unsupported"`
	// StdioOnly: the client only launches local programs, so it gets the stdio bridge.
	StdioOnly bool `json:"stdioOnly"`
	// Format is the file's format ("JSON", "TOML", "YAML"); Proof the check that proves the
	// file the app writes; Configured: the file names the app's server now.
	Format     string `json:"format"`
	Proof      string `json:"proof"`
	Configured bool   `json:"configured"`
	// Project: the file is a project's (.mcp.json in a folder), shared, so it holds no token.
	Project bool `json:"project"`
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
	// Project is the project folder of a project's file.
	Project string `json:"project"`
}

// PairingResultDTO is the client's configuration (Text, in the file's Format, holding the new
// token), the token's description (none for a project's file), and the file written with its
// backup; Declined when the user said No.
type PairingResultDTO struct {
	Text     string    `json:"text"`
	Format   string    `json:"format"`
	File     string    `json:"file"`
	Note     string    `json:"note"`
	Token    *TokenDTO `json:"token"`
	Written  string    `json:"written"`
	Backup   string    `json:"backup"`
	Declined bool      `json:"declined"`
}

// PairingRemovalDTO asks to take the app's server out of a client's file.
type PairingRemovalDTO struct {
	Client  string `json:"client"`
	Project string `json:"project"`
}

// PairingRemovedDTO is what the removal did: the file and its backup, the token it held and
// revoked ("" when none), Declined when the user said No.
type PairingRemovedDTO struct {
	File     string `json:"file"`
	Backup   string `json:"backup"`
	Revoked  string `json:"revoked"`
	Declined bool   `json:"declined"`
}

// ApprovalGrantedEvent names an approval the person may choose to remember.
type ApprovalGrantedEvent struct {
	Ticket     string `json:"ticket"`
	Client     string `json:"client"`
	Connection string `json:"connection"`
	Token      string `json:"token"`
}

// FromToken describes a token as of now (never the token itself; lists never null).
func FromToken(t auth.Token, now time.Time) TokenDTO {
	d := TokenDTO{ID: t.ID, Name: t.Name, Level: t.Level, Connections: t.Connections, Expired: t.Expired(now), CreatedAt: t.CreatedAt.UTC().Format(time.RFC3339)}
	if d.Connections == nil {
		d.Connections = []string{}
	}
	if t.ExpiresAt != nil {
		d.ExpiresAt = t.ExpiresAt.UTC().Format(time.RFC3339)
	}
	if t.LastUsedAt != nil {
		d.LastUsedAt = t.LastUsedAt.UTC().Format(time.RFC3339)
	}
	return d
}

// FromClient is one line of Settings, Connected clients.
func FromClient(c activity.Client) ConnectedClientDTO {
	return ConnectedClientDTO{
		Name: c.Name, Version: c.Version, Principal: c.Principal, TokenName: c.TokenName, Level: c.Level,
		FirstSeen: c.FirstSeen.UTC().Format(time.RFC3339), LastSeen: c.LastSeen.UTC().Format(time.RFC3339),
		Requests: c.Requests, Errors: c.Errors,
	}
}

// FromEntry is one line of Settings, Activity log.
func FromEntry(e activity.Entry) ActivityEntryDTO {
	return ActivityEntryDTO{
		ID: e.ID, Time: e.Time.UTC().Format(time.RFC3339Nano), ClientName: e.ClientName, ClientVersion: e.ClientVersion,
		Principal: e.Principal, TokenName: e.TokenName, Level: e.Level, Method: e.Method, Name: e.Name,
		Connection: e.Connection, Statement: e.Statement, Outcome: e.Outcome, DurationMS: e.DurationMS,
		PrevHash: e.PrevHash, Hash: e.Hash, Trace: e.Trace,
	}
}

// Filter is the activity log's filter the query describes (without its page); the error
// names the time that cannot be read ("since: ...").
func (q ActivityQueryDTO) Filter(now time.Time) (activity.Filter, error) {
	f := activity.Filter{
		Client: strings.TrimSpace(q.Client), Token: strings.TrimSpace(q.Token), Connection: strings.TrimSpace(q.Connection),
		Outcome: strings.TrimSpace(q.Outcome), Search: q.Search,
	}
	var err error
	if f.Since, err = activity.ParseWhen(q.Since, now); err != nil {
		return f, fmt.Errorf("since: %w", err)
	}
	if f.Until, err = activity.ParseWhen(q.Until, now); err != nil {
		return f, fmt.Errorf("until: %w", err)
	}
	return f, nil
}

// FromVerification is the chain check's answer.
func FromVerification(v activity.Verification) ChainCheckDTO {
	d := ChainCheckDTO{Entries: v.Entries, AnchorID: v.AnchorID, Intact: v.Intact()}
	if v.Broken != nil {
		d.BrokenID, d.Reason = v.Broken.ID, v.Broken.Reason
	}
	return d
}

// ForeignChangeDTO is a policy file another program changed (integrity.Finding): App acts on
// its own last version until the person accepts or reverts the change.
type ForeignChangeDTO struct {
	// Name is the file's name in the config dir; Path its full path.
	Name string `json:"name"`
	Path string `json:"path"`
	// What happened: "changed", "removed", "added" or "unsealed".
	What string `json:"what"`
	// CanRevert tells that App holds its own last version to write back.
	CanRevert bool `json:"canRevert"`
	// SealedAt is when App last wrote it (RFC 3339; "" when unknown).
	SealedAt string `json:"sealedAt"`
}

// FromFinding is the DTO of f.
func FromFinding(f integrity.Finding) ForeignChangeDTO {
	d := ForeignChangeDTO{Name: f.Name, Path: f.Path, What: f.What, CanRevert: f.CanRevert}
	if !f.SealedAt.IsZero() {
		d.SealedAt = f.SealedAt.UTC().Format(time.RFC3339)
	}
	return d
}
