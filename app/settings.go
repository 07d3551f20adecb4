package app

import (
	"context"
	"errors"
	"time"

	"app/app/dto"
	"app/backend/config"
	"app/backend/core"
	"app/backend/integrity"
	"app/backend/mcpstatus"
	"app/backend/pairing"
)

// MCPControl is the part of core.MCPService the Settings panel needs: apply settings now and
// say how the server is.
type MCPControl interface {
	Apply(ctx context.Context, want config.MCPSettings) error
	Status() core.MCPStatus
}

// mcpKeys are the MCP settings the panel may change (the mcp.* keys of the settings file).
var mcpKeys = map[string]bool{
	"enabled": true, "port": true, "requireAuth": true, "externalAccess": true,
	"defaultRowLimit": true, "maxRowLimit": true, "queryTimeoutSeconds": true, "rateLimitPerMinute": true,
}

// SettingsAPI is Settings, MCP server: the server's settings and its status line. A change is
// validated like `app settings set`, written to the settings file and applied at once (the
// settings watcher would apply it within a second anyway), without restarting the app. Its
// exported methods are bound to the frontend (frontend/wailsjs/go/app/SettingsAPI).
type SettingsAPI struct {
	base
	file *config.JSONFile[config.Settings]
	mcp  MCPControl
	// seal is the policy files' seal: another program's changes, for the person to decide.
	seal *integrity.Seal
	// stale are the stale clients last read from the AI clients' config files: MCP and
	// RepairClients read them again, SetMCP reuses them unless the bound port changed.
	stale mcpstatus.Stale
}

// NewSettingsAPI returns the facade over the settings file and the MCP service.
func NewSettingsAPI(file *config.JSONFile[config.Settings], mcp MCPControl) *SettingsAPI {
	return &SettingsAPI{file: file, mcp: mcp}
}

func (a *SettingsAPI) wire(c *core.Core) {
	a.file, a.mcp, a.seal = c.Settings(), c.MCP(), c.Integrity()
}

// ForeignChanges lists the policy files another program changed since App last wrote them
// (issue 44): the window asks when it opens, and App acts on its own last version of each
// until the person accepts or reverts it.
func (a *SettingsAPI) ForeignChanges() ([]dto.ForeignChangeDTO, error) {
	out := []dto.ForeignChangeDTO{}
	if a.seal == nil {
		return out, nil
	}
	ctx, cancel := a.callContext()
	defer cancel()
	findings, err := a.seal.Check(ctx)
	if errors.Is(err, integrity.ErrNoKeyring) {
		return out, nil
	}
	if err != nil {
		return nil, apiError(err)
	}
	for _, f := range findings {
		out = append(out, dto.FromFinding(f))
	}
	return out, nil
}

// AcceptForeignChange makes another program's change of the named policy file App's own.
func (a *SettingsAPI) AcceptForeignChange(name string) error {
	if a.seal == nil {
		return apiError(integrity.ErrNoKeyring)
	}
	ctx, cancel := a.callContext()
	defer cancel()
	return apiError(a.seal.Accept(ctx, name))
}

// RevertForeignChange writes App's own last version of the named policy file back.
func (a *SettingsAPI) RevertForeignChange(name string) error {
	if a.seal == nil {
		return apiError(integrity.ErrNoKeyring)
	}
	ctx, cancel := a.callContext()
	defer cancel()
	return apiError(a.seal.Revert(ctx, name))
}

// MCP returns the MCP server's settings and status, with the stale clients read afresh: the
// window asks when it opens, when the server started and when the panel opens, and a client may
// have been paired or repaired (by the app or by `app client`) since the last answer.
func (a *SettingsAPI) MCP() (dto.MCPSettingsDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	s, err := a.file.Load(ctx)
	if err != nil {
		return dto.MCPSettingsDTO{}, apiError(err)
	}
	return a.dto(s.MCP, true), nil
}

// RepairClients points every stale client (MCPSettingsDTO.StaleClients) at the running
// server's port, in one click (issue 25, item 10): only the URL's port changes, the token and
// everything else in the client's config file stay, and the file is backed up first.
func (a *SettingsAPI) RepairClients() (dto.RepairResultDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	port := a.mcp.Status().Port
	if port == 0 {
		return dto.RepairResultDTO{}, unavailable("the MCP server is not running: there is no port to point the clients at")
	}
	out := dto.RepairResultDTO{Repaired: []dto.RepairedClientDTO{}}
	for _, r := range pairing.RepairAll(port, time.Now()) {
		out.Repaired = append(out.Repaired, dto.RepairedClientDTO(r))
	}
	s, err := a.file.Load(ctx)
	if err != nil {
		return out, apiError(err)
	}
	out.Settings = a.dto(s.MCP, true)
	return out, nil
}

// SetMCP changes one MCP setting (key without the "mcp." prefix; value as text, as `app
// settings set` takes it) and applies it. A refused value changes nothing. The stale clients
// are read again only when the bound port changed.
func (a *SettingsAPI) SetMCP(key, value string) (dto.MCPSettingsDTO, error) {
	if !mcpKeys[key] {
		return dto.MCPSettingsDTO{}, invalidArgument("%q is not an MCP setting the panel changes", key)
	}
	ctx, cancel := a.callContext()
	defer cancel()
	if err := config.SetSetting(ctx, a.file, "mcp."+key, value); err != nil {
		return dto.MCPSettingsDTO{}, apiError(invalid(err))
	}
	s, err := a.file.Load(ctx)
	if err != nil {
		return dto.MCPSettingsDTO{}, apiError(err)
	}
	_ = a.mcp.Apply(ctx, s.MCP) // its error is the status line's
	return a.dto(s.MCP, false), nil
}

// dto is the panel's view of m and the server's status; reread reads the clients' config files
// for the stale clients even when the bound port is the one they were last read for.
func (a *SettingsAPI) dto(m config.MCPSettings, reread bool) dto.MCPSettingsDTO {
	st := a.mcp.Status()
	d := dto.MCPSettingsDTO{
		Enabled: m.Enabled, Port: m.Port, RequireAuth: m.RequireAuth, ExternalAccess: m.ExternalAccess,
		DefaultRowLimit: m.DefaultRowLimit, MaxRowLimit: m.MaxRowLimit, QueryTimeoutSeconds: m.QueryTimeoutSeconds,
		RateLimitPerMinute: m.RateLimitPerMinute, BoundPort: st.Port, Error: st.Err,
	}
	d.PortNotice, d.Status = mcpstatus.PortNotice(st), mcpstatus.Line(st)
	d.StaleClients = []dto.StaleClientDTO{}
	for _, c := range a.stale.Clients(st.Port, reread) {
		d.StaleClients = append(d.StaleClients, dto.StaleClientDTO(c))
	}
	return d
}
