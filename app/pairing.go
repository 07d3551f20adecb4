package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"app/backend/auth"
	"app/backend/clientsetup"
	"app/backend/core"
	"app/backend/pairing"
	"app/internal/dto"
)

// PairingAPI is Settings, Connect a client (issue 11): pick an AI client, a level, the
// connections and an expiry; the app mints a token and shows that client's configuration
// (the HTTP endpoint of the running server with the Authorization header), and on request
// merges it into the client's config file after a native confirmation and a backup. Its
// exported methods are bound to the frontend (frontend/wailsjs/go/app/PairingAPI).
type PairingAPI struct {
	base
	tokens TokenStore
	port   func() int // the running MCP server's port, 0 when it does not run
	// configDir is told to app-mcp in a stdio configuration, so it finds this app.
	configDir string
}

// NewPairingAPI returns the facade; port reports the MCP server's bound port, configDir is
// the app's config dir.
func NewPairingAPI(tokens TokenStore, port func() int, configDir string) *PairingAPI {
	return &PairingAPI{tokens: tokens, port: port, configDir: configDir}
}

func (a *PairingAPI) wire(c *core.Core) {
	a.tokens, a.port, a.configDir = LiveTokens(c.Auth()), c.MCP().Port, c.Dir()
}

// Clients lists the clients the app can pair with, with the config file it would write.
func (a *PairingAPI) Clients() []dto.PairingClientDTO {
	out := make([]dto.PairingClientDTO, 0, len(pairing.Clients))
	for _, c := range pairing.Clients {
		out = append(out, dto.PairingClientDTO{ID: c.ID, Title: c.Title, File: c.ConfigFile(), Unsupported: c.Unsupported, StdioOnly: c.StdioOnly()})
	}
	return out
}

// Connect mints a token for the client and returns its configuration; with Write, it merges
// the configuration into the client's config file once the user confirms in a native dialog.
func (a *PairingAPI) Connect(req dto.PairingRequestDTO) (dto.PairingResultDTO, error) {
	c, err := pairing.Find(req.Client)
	if err != nil {
		return dto.PairingResultDTO{}, invalidArgument("%s", err.Error())
	}
	if c.Unsupported != "" {
		return dto.PairingResultDTO{}, unavailable("%s cannot be connected yet: %s", c.Title, c.Unsupported)
	}
	port := a.port()
	if port == 0 {
		return dto.PairingResultDTO{}, unavailable("the MCP server is not running: turn it on in Settings, MCP server, first")
	}
	if !auth.ValidLevel(req.Level) {
		return dto.PairingResultDTO{}, invalidArgument("the level must be one of %s", strings.Join(auth.Levels(), ", "))
	}
	expires, err := auth.ParseExpiry(req.Expires, time.Now())
	if err != nil {
		return dto.PairingResultDTO{}, invalidArgument("expiry: %s", err.Error())
	}
	ctx, cancel := context.WithTimeout(a.parent(), 5*time.Minute) // a dialog may wait for the user
	defer cancel()
	file, write := c.ConfigFile(), ""
	if req.Write {
		write = file
		if file == "" {
			return dto.PairingResultDTO{}, invalidArgument("%s has no config file the app knows: copy the configuration instead", c.Title)
		}
		if confirm := a.env().confirm; confirm != nil {
			ok, err := confirm.Confirm(ctx, "Connect a client", fmt.Sprintf("Write the app's MCP server, with a new %s token, into %s?\n\nThe file is backed up first; its other servers stay.", req.Level, file))
			if err != nil {
				return dto.PairingResultDTO{}, apiError(err)
			}
			if !ok {
				return dto.PairingResultDTO{Declined: true}, nil
			}
		}
	}
	var conns []string
	if len(req.Connections) > 0 {
		conns = req.Connections
	}
	r, err := clientsetup.Setup(ctx, a.tokens, clientsetup.Request{Client: c, File: write,
		Token:    auth.NewToken{Level: req.Level, Connections: conns, ExpiresAt: expires},
		Endpoint: pairing.Endpoint{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), Stdio: req.Stdio, Bridge: pairing.BridgePath(), ConfigDir: a.configDir},
	}, time.Now())
	var refused *clientsetup.TokenError
	if errors.As(err, &refused) {
		return dto.PairingResultDTO{}, apiError(invalid(refused.Err))
	}
	return dto.PairingResultDTO{JSON: r.Snippet.JSON, File: file, Note: r.Snippet.Note, Token: dto.FromToken(r.Token, time.Now()),
		Written: r.Written, Backup: r.Backup}, apiError(err)
}
