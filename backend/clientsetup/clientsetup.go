// Package clientsetup configures an AI client for the app once the person has said what they
// want: it mints the client's token (named after the client and the time unless a name is
// given), builds the client's configuration for the endpoint with it, and, when asked, merges
// that into the client's config file after a backup. Remove undoes it: the app's entry leaves
// the file (backed up first) and the token it held is revoked. The window (Settings, Connect a
// client) and a command line ask their questions first; this is what follows.
package clientsetup

import (
	"context"
	"fmt"
	"time"

	"app/backend/auth"
	"app/backend/pairing"
)

// Tokens is the part of the token store a setup needs.
type Tokens interface {
	List(ctx context.Context) ([]auth.Token, error)
	Create(ctx context.Context, req auth.NewToken) (auth.Token, string, error)
}

// Revoker is the part of the token store Remove needs.
type Revoker interface {
	Match(ctx context.Context, secret string) (auth.Token, bool, error)
	Revoke(ctx context.Context, idOrName string) (auth.Token, error)
}

// Request is one client to configure.
type Request struct {
	Client pairing.Client
	// Token is the token to mint; Name "" is a free name from the client's title and the time.
	Token auth.NewToken
	// Endpoint is where the client reaches the app; its Token is the new token's secret.
	Endpoint pairing.Endpoint
	// File is the config file to write the configuration into ("" writes none).
	File string
}

// Result is the new token (zero for a client whose file holds none), the client's
// configuration and, when written, the file and its backup ("" when there was no file to
// back up).
type Result struct {
	Token           auth.Token
	Snippet         pairing.Snippet
	Written, Backup string
}

// TokenError is a token the store refused to create (a taken name, a bad level, ...): the
// request's fault rather than the app's.
type TokenError struct{ Err error }

func (e *TokenError) Error() string { return e.Err.Error() }
func (e *TokenError) Unwrap() error { return e.Err }

// Setup mints the token, builds the configuration and writes it when r.File is set. When the
// write fails the token exists: the error says so, and the result holds the configuration. A
// client whose file is shared (a project's) gets no token.
func Setup(ctx context.Context, tokens Tokens, r Request, now time.Time) (Result, error) {
	var t auth.Token
	if r.Client.NeedsToken() {
		if r.Token.Name == "" {
			list, err := tokens.List(ctx)
			if err != nil {
				return Result{}, err
			}
			r.Token.Name = auth.FreeName(list, r.Client.Title+" "+now.Format("2006-01-02 15:04"))
		}
		var secret string
		var err error
		t, secret, err = tokens.Create(ctx, r.Token)
		if err != nil {
			return Result{}, &TokenError{err}
		}
		r.Endpoint.Token = secret
	}
	snip, err := pairing.Config(r.Client, r.Endpoint)
	if err != nil {
		return Result{}, err
	}
	res := Result{Token: t, Snippet: snip}
	if r.File != "" {
		backup, err := pairing.Write(r.File, snip, now)
		if err != nil {
			if t.ID == "" {
				return res, err
			}
			return res, fmt.Errorf("the token %q was created, but %w", t.Name, err)
		}
		res.Written, res.Backup = r.File, backup
	}
	return res, nil
}

// Removed is what Remove did: the file's entry and, when the entry held one of the app's
// tokens, that token, now revoked.
type Removed struct {
	pairing.Removed
	// Revoked is the token the entry held, revoked ("" Name when it held none of the app's).
	Revoked auth.Token
}

// Remove takes the app's server out of the client's config file (after a backup) and revokes
// the token the entry held, which no other client was given. A token that is no longer in the
// store (revoked before) is not an error.
func Remove(ctx context.Context, tokens Revoker, c pairing.Client, file string, now time.Time) (Removed, error) {
	r, err := pairing.Remove(c, file, now)
	if err != nil {
		return Removed{}, err
	}
	out := Removed{Removed: r}
	if r.Token == "" {
		return out, nil
	}
	t, ok, err := tokens.Match(ctx, r.Token)
	if err != nil {
		return out, fmt.Errorf("the app's server was removed from %s, but its token could not be looked up: %w", file, err)
	}
	if !ok {
		return out, nil
	}
	gone, err := tokens.Revoke(ctx, t.ID)
	if err != nil {
		return out, fmt.Errorf("the app's server was removed from %s, but its token %q was not revoked: %w", file, t.Name, err)
	}
	out.Revoked = gone
	return out, nil
}
