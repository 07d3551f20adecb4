package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"app/app/dto"
	"app/backend/auth"
	"app/backend/clientsetup"
	"app/backend/core"
	"app/backend/pairing"
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
		d := dto.PairingClientDTO{ID: c.ID, Title: c.Title, Unsupported: c.Unsupported, StdioOnly: c.StdioOnly(),
			Format: c.FormatName(), Proof: c.Proof, Project: c.Project}
		if !c.Project { // a desktop app has no working directory of the person's: they name the folder
			d.File = c.ConfigFile()
			d.Configured = pairing.Configured(c, d.File)
		}
		out = append(out, d)
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
	if c.Project && strings.TrimSpace(req.Project) == "" {
		return dto.PairingResultDTO{}, invalidArgument("%s's file lives in a project folder: name the folder", c.Title)
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
	file, write := c.ConfigFileIn(req.Project), ""
	if req.Write {
		write = file
		if file == "" {
			return dto.PairingResultDTO{}, invalidArgument("%s has no config file the app knows: copy the configuration instead", c.Title)
		}
		if confirm := a.env().confirm; confirm != nil {
			what := fmt.Sprintf("Write the app's MCP server, with a new %s token, into %s?", req.Level, file)
			if c.Project {
				what = fmt.Sprintf("Write the app's MCP server (app-mcp, no token) into %s?", file)
			}
			ok, err := confirm.Confirm(ctx, "Connect a client", what+"\n\nThe file is backed up first; its other servers and comments stay.")
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
		Token: auth.NewToken{Level: req.Level, Connections: conns, ExpiresAt: expires},
		Endpoint: pairing.Endpoint{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), Stdio: req.Stdio, Bridge: pairing.BridgePath(),
			ConfigDir: a.configDir, Project: req.Project},
	}, time.Now())
	var refused *clientsetup.TokenError
	if errors.As(err, &refused) {
		return dto.PairingResultDTO{}, apiError(invalid(refused.Err))
	}
	res := dto.PairingResultDTO{Text: r.Snippet.Text, Format: r.Snippet.Format, File: file, Note: r.Snippet.Note,
		Written: r.Written, Backup: r.Backup}
	if r.Token.ID != "" {
		t := dto.FromToken(r.Token, time.Now())
		res.Token = &t
	}
	return res, apiError(err)
}

// Remove takes the app's server out of the client's config file once the user confirms in a
// native dialog (the file is backed up first) and revokes the token the entry held.
func (a *PairingAPI) Remove(req dto.PairingRemovalDTO) (dto.PairingRemovedDTO, error) {
	c, err := pairing.Find(req.Client)
	if err != nil {
		return dto.PairingRemovedDTO{}, invalidArgument("%s", err.Error())
	}
	if c.Project && strings.TrimSpace(req.Project) == "" {
		return dto.PairingRemovedDTO{}, invalidArgument("%s's file lives in a project folder: name the folder", c.Title)
	}
	file := c.ConfigFileIn(req.Project)
	if file == "" {
		return dto.PairingRemovedDTO{}, invalidArgument("%s has no config file the app knows", c.Title)
	}
	ctx, cancel := context.WithTimeout(a.parent(), 5*time.Minute) // a dialog may wait for the user
	defer cancel()
	if confirm := a.env().confirm; confirm != nil {
		ok, err := confirm.Confirm(ctx, "Disconnect a client", fmt.Sprintf("Remove the app's MCP server from %s and revoke the token it holds?\n\nThe file is backed up first; its other servers and comments stay.", file))
		if err != nil {
			return dto.PairingRemovedDTO{}, apiError(err)
		}
		if !ok {
			return dto.PairingRemovedDTO{Declined: true}, nil
		}
	}
	r, err := clientsetup.Remove(ctx, a.tokens, c, file, time.Now())
	if errors.Is(err, pairing.ErrNotConfigured) {
		return dto.PairingRemovedDTO{}, apiError(invalid(err))
	}
	return dto.PairingRemovedDTO{File: r.File, Backup: r.Backup, Revoked: r.Revoked.Name}, apiError(err)
}
