package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"

	"app/backend/driver"
)

// The connection page's user, roles and permissions (issue 40, item 4), read-only, over
// Weaviate's REST API: GET /v1/users/own-info is the key's own user, its roles and each
// role's permissions (any key may read it); GET /v1/authz/roles the roles and GET
// /v1/users/db the users (the database users made through the API and the API-key users
// of the server's settings; OIDC users are the identity provider's, and no endpoint lists
// them). Both releases the harness runs answer alike, with two traps:
//
//   - the lists filter, they do not refuse: a key whose roles lack read_roles gets 200 and
//     [] from /v1/authz/roles, and one lacking read_users 200 and [] (or only itself, as a
//     database user) from /v1/users/db. So the driver reads whether a list is the key's to
//     read from the key's own permissions, and says why it shows none, never "no roles".
//   - on 1.39.0 a namespaced user's own-info repeats its role's permissions once per
//     namespace-scoped rule (784 entries for the 28 of the built-in admin role): each
//     permission is kept once.
//
// Without RBAC the server checks no roles: own-info answers the key's user with no roles
// (an anonymous request gets 401), /v1/authz/roles is [] and the built-in roles' own paths
// (/v1/authz/roles/viewer) are 404, where a server with RBAC answers 200 or 403.

var _ driver.AccessControl = (*Driver)(nil)

// wirePermission is one permission as /v1/authz/roles and own-info give it: an action and
// at most one scope object besides, named after its domain (data, collections, roles, ...).
type wirePermission map[string]json.RawMessage

type wireRole struct {
	Name        string           `json:"name"`
	Permissions []wirePermission `json:"permissions"`
}

// builtInRoles are the roles the server makes, which no one may change.
var builtInRoles = []string{"admin", "root", "viewer", "read-only"}

// userKinds says each of /v1/users/db's dbUserType in words.
var userKinds = map[string]string{
	"db_user":     "database user",
	"db_env_user": "API key user (the server's settings)",
	"oidc":        "OIDC user",
}

// AccessControl reads the key's own user, roles and permissions and, where its roles let it
// read them, the server's roles and users.
func (d *Driver) AccessControl(ctx context.Context) (*driver.AccessReport, error) {
	out := &driver.AccessReport{Roles: []driver.Role{}, Auth: "anonymous access"}
	if d.s.APIKey != "" {
		out.Auth = "an API key"
	}
	var own struct {
		Username string     `json:"username"`
		Roles    []wireRole `json:"roles"`
		Groups   []string   `json:"groups"`
	}
	st, body, err := d.call(ctx, http.MethodGet, "/v1/users/own-info", nil, nil)
	switch {
	case err != nil:
		return nil, err
	case st == http.StatusUnauthorized && d.s.APIKey == "":
		// An anonymous request has no user to describe.
	case st != http.StatusOK:
		return nil, d.statusError(st, body, "/v1/users/own-info")
	default:
		if err := json.Unmarshal(body, &own); err != nil {
			return nil, driver.Wrap(driver.KindQueryFailed, err, "the answer of %s to /v1/users/own-info cannot be read", d.hostTxt)
		}
	}
	out.User, out.Groups = own.Username, own.Groups
	for _, r := range own.Roles {
		out.Roles = append(out.Roles, toRole(r))
	}
	enforced, err := d.rbacOn(ctx, len(own.Roles) > 0)
	if err != nil {
		return nil, err
	}
	if out.Enforced = enforced; !enforced {
		out.Note = fmt.Sprintf("The Weaviate server at %s does not check roles (RBAC is off): every key it lets in may do everything, so it has no roles or users to show.", d.hostTxt)
		return out, nil
	}
	var lacks []string
	if mayRead(out.Roles, "read_roles") {
		var roles []wireRole
		if err := d.getJSON(ctx, "/v1/authz/roles", &roles); err != nil {
			return nil, err
		}
		out.RolesShown, out.AllRoles = true, make([]driver.Role, 0, len(roles))
		for _, r := range roles {
			out.AllRoles = append(out.AllRoles, toRole(r))
		}
		sort.Slice(out.AllRoles, func(i, j int) bool { return out.AllRoles[i].Name < out.AllRoles[j].Name })
	} else {
		lacks = append(lacks, "read_roles")
	}
	if mayRead(out.Roles, "read_users") {
		var users []struct {
			UserID     string   `json:"userId"`
			DBUserType string   `json:"dbUserType"`
			Active     bool     `json:"active"`
			Roles      []string `json:"roles"`
		}
		if err := d.getJSON(ctx, "/v1/users/db", &users); err != nil {
			return nil, err
		}
		out.UsersShown, out.Users = true, make([]driver.User, 0, len(users))
		for _, u := range users {
			out.Users = append(out.Users, toUser(u.UserID, u.DBUserType, u.Active, u.Roles))
		}
		if len(users) == 0 {
			// Without database users (AUTHENTICATION_DB_USERS_ENABLED off) the server lists
			// none, not even its settings' API-key users: read them from the roles instead.
			if err := d.usersFromRoles(ctx, out); err != nil {
				return nil, err
			}
		}
		sort.Slice(out.Users, func(i, j int) bool { return out.Users[i].Name < out.Users[j].Name })
	} else {
		lacks = append(lacks, "read_users")
	}
	switch len(lacks) {
	case 2:
		out.Note = "The key's roles grant neither read_roles nor read_users, so the cluster's roles and users are not shown; only its own are."
	case 1:
		what := map[string]string{"read_roles": "roles", "read_users": "users"}[lacks[0]]
		out.Note = fmt.Sprintf("The key's roles do not grant %s, so the cluster's %s are not shown.", lacks[0], what)
	}
	if !out.UsersShown && !slices.Contains(lacks, "read_users") {
		out.Note = strings.TrimSpace(out.Note + " The server keeps no database users, so its users are known only from the roles they hold, which the key may not read.")
	}
	return out, nil
}

// toUser is one user of /v1/users/db (or of a role's assignments), its roles by name.
func toUser(name, dbUserType string, active bool, roles []string) driver.User {
	kind, ok := userKinds[dbUserType]
	if !ok {
		kind = strings.ReplaceAll(dbUserType, "_", " ")
	}
	roles = orNone(roles)
	sort.Strings(roles) // the server's order changes from one answer to the next
	return driver.User{Name: name, Kind: kind, Active: active, Roles: roles}
}

// usersFromRoles fills out.Users from each role's assignments where the server keeps no
// database users (GET /v1/users/db/{id} then answers 422 "db user management is not
// enabled"): every user holding a role, which is every user RBAC lets do anything. The
// server lists a user given a role without a user type twice, as its API-key user and as
// an OIDC subject of the same name; the API-key user is kept. Where the key may not read
// the roles, the users are not shown, and the note says why.
func (d *Driver) usersFromRoles(ctx context.Context, out *driver.AccessReport) error {
	st, body, err := d.call(ctx, http.MethodGet, "/v1/users/db/"+url.PathEscape(out.User), nil, nil)
	if err != nil {
		return err
	}
	if st != http.StatusUnprocessableEntity || !strings.Contains(serverMessage(body), "not enabled") {
		return nil // database users are on: the list was the server's, filtered to none
	}
	if !out.RolesShown {
		out.UsersShown = false
		return nil
	}
	type held struct {
		kind  string
		roles []string
	}
	byName := map[string]*held{}
	for _, r := range out.AllRoles {
		var as []struct {
			UserID   string `json:"userId"`
			UserType string `json:"userType"`
		}
		path := "/v1/authz/roles/" + url.PathEscape(r.Name) + "/user-assignments"
		st, body, err := d.call(ctx, http.MethodGet, path, nil, nil)
		switch {
		case err != nil:
			return err
		case st == http.StatusForbidden:
			// The built-in read-only role's assignments are refused even to a root user
			// (1.35.2 and 1.39.0): "modifying 'read-only' role or changing its
			// assignments is not allowed". Its holders are shown with their other roles.
			continue
		case st != http.StatusOK:
			return d.statusError(st, body, path)
		}
		if err := json.Unmarshal(body, &as); err != nil {
			return driver.Wrap(driver.KindQueryFailed, err, "the answer of %s to %s cannot be read", d.hostTxt, path)
		}
		for _, a := range as {
			h := byName[a.UserID]
			if h == nil {
				h = &held{kind: a.UserType}
				byName[a.UserID] = h
			}
			if a.UserType != "oidc" {
				h.kind = a.UserType
			}
			if !slices.Contains(h.roles, r.Name) {
				h.roles = append(h.roles, r.Name)
			}
		}
	}
	for name, h := range byName {
		// An API-key user of the settings is always active; an OIDC subject is the identity
		// provider's to stop, which the server does not say.
		out.Users = append(out.Users, toUser(name, h.kind, true, h.roles))
	}
	return nil
}

// rbacOn reports whether the server checks roles. A key that holds any role says so by
// itself; otherwise the built-in viewer role's path tells: 404 without RBAC, 200 or 403
// with it.
func (d *Driver) rbacOn(ctx context.Context, hasRoles bool) (bool, error) {
	if hasRoles {
		return true, nil
	}
	st, body, err := d.call(ctx, http.MethodGet, "/v1/authz/roles/viewer", nil, nil)
	switch {
	case err != nil:
		return false, err
	case st == http.StatusNotFound:
		return false, nil
	case st == http.StatusOK, st == http.StatusForbidden, st == http.StatusUnauthorized:
		return true, nil
	default:
		return false, d.statusError(st, body, "/v1/authz/roles/viewer")
	}
}

// getJSON reads path's answer into out.
func (d *Driver) getJSON(ctx context.Context, path string, out any) error {
	st, body, err := d.call(ctx, http.MethodGet, path, nil, nil)
	if err != nil {
		return err
	}
	if st != http.StatusOK {
		return d.statusError(st, body, path)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return driver.Wrap(driver.KindQueryFailed, err, "the answer of %s to %s cannot be read", d.hostTxt, path)
	}
	return nil
}

// mayRead reports whether roles grant action on any scope: the lists it opens are then the
// key's to read, filtered by the server to what its scope covers.
func mayRead(roles []driver.Role, action string) bool {
	for _, r := range roles {
		for _, p := range r.Permissions {
			if p.Action == action {
				return true
			}
		}
	}
	return false
}

// toRole is a role with each permission once, in the server's order.
func toRole(r wireRole) driver.Role {
	out := driver.Role{Name: r.Name, BuiltIn: slices.Contains(builtInRoles, r.Name), Permissions: []driver.Permission{}}
	seen := map[string]bool{}
	for _, wp := range r.Permissions {
		p := toPermission(wp)
		if key := p.Action + "\x00" + p.Scope; !seen[key] {
			seen[key] = true
			out.Permissions = append(out.Permissions, p)
		}
	}
	return out
}

// toPermission reads one permission: its action, its scope object's fields as "collection
// Article, tenant *" (by name, the order stable), and its words.
func toPermission(wp wirePermission) driver.Permission {
	var p driver.Permission
	_ = json.Unmarshal(wp["action"], &p.Action)
	scope := map[string]string{}
	for k, raw := range wp {
		if k == "action" {
			continue
		}
		var fields map[string]any
		if json.Unmarshal(raw, &fields) != nil {
			continue
		}
		for f, v := range fields {
			scope[strings.ToLower(f)] = fmt.Sprint(v)
		}
	}
	keys := make([]string, 0, len(scope))
	for k := range scope {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + scope[k]
	}
	p.Scope = strings.Join(parts, ", ")
	p.Words = actionWords(p.Action) + " on " + scopeWords(scope)
	return p
}

// orNone is s, or an empty list for none, so that "no roles" reads as a list.
func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
