package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"app/app/dto"
	"app/backend/auth"
	"app/backend/clientsetup"
	"app/backend/core"
)

// TokenStore is the part of auth.Store the Settings panel needs: what a client's setup needs
// (list, create), and revoke.
type TokenStore interface {
	clientsetup.Tokens
	clientsetup.Revoker
}

// TokensAPI is Settings, MCP tokens: list, create (the token is returned once, never again)
// and revoke. Its exported methods are bound to the frontend (frontend/wailsjs/go/app/
// TokensAPI). The running app picks up every change within a second (auth.Service), and a
// revoked token's requests in flight end with -33002.
type TokensAPI struct {
	base
	store TokenStore
}

// NewTokensAPI returns the facade over a token store.
func NewTokensAPI(store TokenStore) *TokensAPI {
	return &TokensAPI{store: store}
}

func (a *TokensAPI) wire(c *core.Core) { a.store = LiveTokens(c.Auth()) }

// List returns the tokens, oldest first; never a token itself. It never returns null.
func (a *TokensAPI) List() ([]dto.TokenDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	list, err := a.store.List(ctx)
	if err != nil {
		return nil, apiError(err)
	}
	now := time.Now()
	out := make([]dto.TokenDTO, 0, len(list))
	for _, t := range list {
		out = append(out, dto.FromToken(t, now))
	}
	return out, nil
}

// Create makes a token. The result holds the token itself: the only time it is shown.
// Expires takes what `app token create --expires` takes (30d, 2w, 12h, 2026-12-31, never).
func (a *TokensAPI) Create(req dto.TokenRequestDTO) (dto.CreatedTokenDTO, error) {
	if !auth.ValidLevel(req.Level) {
		return dto.CreatedTokenDTO{}, invalidArgument("the level must be one of %s", strings.Join(auth.Levels(), ", "))
	}
	now := time.Now()
	expires, err := auth.ParseExpiry(req.Expires, now)
	if err != nil {
		return dto.CreatedTokenDTO{}, invalidArgument("expiry: %s", err.Error())
	}
	var conns []string
	if len(req.Connections) > 0 {
		conns = req.Connections
	}
	ctx, cancel := a.callContext()
	defer cancel()
	t, secret, err := a.store.Create(ctx, auth.NewToken{Name: req.Name, Level: req.Level, Connections: conns, ExpiresAt: expires})
	if err != nil {
		return dto.CreatedTokenDTO{}, apiError(invalid(err))
	}
	return dto.CreatedTokenDTO{Token: dto.FromToken(t, now), Secret: secret}, nil
}

// Revoke revokes a token after the user confirms in a native dialog; false when declined.
// Clients holding it get 401 from then on, and its requests in flight end.
func (a *TokensAPI) Revoke(id string) (bool, error) {
	if strings.TrimSpace(id) == "" {
		return false, invalidArgument("a token id is required")
	}
	ctx, cancel := a.callContext()
	defer cancel()
	list, err := a.store.List(ctx)
	if err != nil {
		return false, apiError(err)
	}
	var name string
	for _, t := range list {
		if t.ID == id {
			name = t.Name
		}
	}
	if name == "" {
		return false, apiError(fmt.Errorf("%w: %q", auth.ErrNotFound, id))
	}
	yes, err := a.ask("Revoke token", fmt.Sprintf("Revoke the token \u201c%s\u201d?\n\nAI clients that use it are refused from now on, and their requests in progress end.", name),
		func(ctx context.Context) error {
			_, err := a.store.Revoke(ctx, id)
			return err
		})
	return yes, apiError(err)
}

// liveTokens is the TokenStore of a running app: tokens are listed and created in the store,
// and revoked through access control, so that a revocation from the window ends the token's
// requests and sessions at once instead of at the next poll of the tokens file.
type liveTokens struct {
	*auth.Store
	svc *auth.Service
}

// LiveTokens returns the TokenStore over access control (core.Core.Auth).
func LiveTokens(svc *auth.Service) TokenStore { return liveTokens{Store: svc.Store(), svc: svc} }

func (l liveTokens) Revoke(ctx context.Context, idOrName string) (auth.Token, error) {
	return l.svc.Revoke(ctx, idOrName)
}
