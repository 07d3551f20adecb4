package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"app/app/dto"
	"app/backend/activity"
	"app/backend/auth"
	"app/backend/core"
)

// RecentClientsWindow is how far back Settings, Connected clients looks: the clients that
// called in the last 15 minutes.
const RecentClientsWindow = 15 * time.Minute

// ClientsAPI is Settings, Connected clients (issue 11): who called the MCP endpoint lately,
// and "disconnect", which revokes that client's token after the app's native confirmation.
// Its exported methods are bound to the frontend (frontend/wailsjs/go/app/ClientsAPI).
type ClientsAPI struct {
	base
	clients *activity.Clients
	tokens  TokenStore
}

// NewClientsAPI returns the facade over the connected-clients table and the token store.
func NewClientsAPI(clients *activity.Clients, tokens TokenStore) *ClientsAPI {
	return &ClientsAPI{clients: clients, tokens: tokens}
}

func (a *ClientsAPI) wire(c *core.Core) {
	a.clients, a.tokens = c.Activity().Clients(), LiveTokens(c.Auth())
}

// Recent returns the clients seen in the last RecentClientsWindow, most recent first. It
// never returns null.
func (a *ClientsAPI) Recent() ([]dto.ConnectedClientDTO, error) {
	list := a.clients.Recent(RecentClientsWindow)
	out := make([]dto.ConnectedClientDTO, 0, len(list))
	for _, c := range list {
		out = append(out, dto.FromClient(c))
	}
	return out, nil
}

// Disconnect revokes the token a client called with, after the user confirms in a native
// dialog that names the client and the token; false when declined. Every client using that
// token is refused from then on and its requests in flight end. The anonymous principal has
// no token to revoke.
func (a *ClientsAPI) Disconnect(principal, clientName string) (bool, error) {
	id, ok := strings.CutPrefix(principal, auth.PrincipalPrefix)
	if !ok || id == "" {
		return false, invalidArgument("this client calls without a token, so there is none to revoke: turn on Require a token in Settings, MCP server, to shut anonymous callers out")
	}
	ctx, cancel := a.callContext()
	defer cancel()
	list, err := a.tokens.List(ctx)
	if err != nil {
		return false, apiError(err)
	}
	var tok *auth.Token
	for i := range list {
		if list[i].ID == id {
			tok = &list[i]
		}
	}
	if tok == nil {
		a.clients.Forget(principal)
		return false, apiError(fmt.Errorf("%w: the token of this client was already revoked", auth.ErrNotFound))
	}
	who := clientName
	if who == "" {
		who = "this client"
	}
	yes, err := a.ask("Disconnect client", fmt.Sprintf("Disconnect %s by revoking its token \u201c%s\u201d (%s)?\n\nEvery client that uses this token is refused from now on, and its requests in progress end.", who, tok.Name, tok.Level),
		func(ctx context.Context) error {
			_, err := a.tokens.Revoke(ctx, id)
			return err
		})
	if err != nil || !yes {
		return false, apiError(err)
	}
	a.clients.Forget(principal)
	return true, nil
}
