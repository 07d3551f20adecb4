package driver

import "context"

// AccessControl is what a driver offers beyond the contract to say who the connection is to
// its database and what it may do there (issue 40, item 4): the connection page shows it,
// read-only. Nothing here changes a grant: roles and users are made in the database's own
// tools.
//
// The words are generic, because every database with access control has them: a user is who
// the connection's credential logs in as (Weaviate: an API key's user, a database user made
// through /v1/users/db, an OIDC subject; PostgreSQL: a login role); a role is a named set of
// permissions a user holds (Weaviate's RBAC roles; PostgreSQL's group roles); a permission is
// one action the database allows on one scope (Weaviate: read_data on collection Article;
// PostgreSQL: SELECT on table public.article, a GRANT), said in words beside the database's
// own names.
//
// Two parts. The own part (User, Auth, Roles) is what the connection's own credential may
// always read about itself. The cluster's part (AllRoles, Users) is what the database lets
// this credential read of everyone: where it may not (Weaviate: a key whose roles lack
// read_roles or read_users), the part is left out and Note says why, which is an answer,
// not an error. A database that checks no roles at all (Weaviate without RBAC: every key it
// lets in may do everything) says so with Enforced false and a Note in words.
type AccessControl interface {
	// AccessControl reads the connection's own user, roles and permissions and, where the
	// credential may read them, the database's roles and users.
	AccessControl(ctx context.Context) (*AccessReport, error)
}

// AccessReport is who a connection is to its database and what it may do there.
type AccessReport struct {
	// Enforced: the database grants by roles (Weaviate: RBAC is on). False: it checks none,
	// and every credential it lets in may do everything; Note says so in words.
	Enforced bool `json:"enforced"`
	// User is the connection's own user as the database names it; "" for an anonymous one.
	User string `json:"user,omitempty"`
	// Auth is how the connection authenticates, in words, where known ("an API key",
	// "anonymous access").
	Auth string `json:"auth,omitempty"`
	// Roles are the user's own roles, each with its permissions.
	Roles []Role `json:"roles"`
	// Groups are the groups the user belongs to where the database has them (Weaviate: OIDC
	// groups), which may carry roles of their own.
	Groups []string `json:"groups,omitempty"`
	// RolesShown: AllRoles is the database's list of roles, as far as the credential may read
	// it. False: the credential may not read them, and Note says why.
	RolesShown bool `json:"rolesShown"`
	// AllRoles are the database's roles, each with its permissions, by name.
	AllRoles []Role `json:"allRoles,omitempty"`
	// UsersShown: Users is the database's list of users, as far as the credential may read
	// it. False: it may not, and Note says why.
	UsersShown bool `json:"usersShown"`
	// Users are the database's users, by name.
	Users []User `json:"users,omitempty"`
	// Note is what else the page says, in the driver's words: why a part is not shown, or
	// that the database checks no roles.
	Note string `json:"note,omitempty"`
}

// Role is a named set of permissions.
type Role struct {
	Name string `json:"name"`
	// BuiltIn: the database made it and it cannot be changed (Weaviate: admin, viewer,
	// read-only, root).
	BuiltIn bool `json:"builtIn,omitempty"`
	// Permissions, each once, in the database's order.
	Permissions []Permission `json:"permissions"`
}

// Permission is one action the database allows on one scope.
type Permission struct {
	// Action is the database's own name for it (Weaviate: read_data; PostgreSQL: SELECT).
	Action string `json:"action"`
	// Scope is what it applies to, in the database's own terms ("collection Article, tenant
	// *"); "" where the action has no scope (the whole database).
	Scope string `json:"scope,omitempty"`
	// Words say the permission in words ("reading rows on Article"), the ones a refusal of
	// it uses.
	Words string `json:"words"`
}

// User is one of the database's users.
type User struct {
	Name string `json:"name"`
	// Kind is what sort of user it is, in words (Weaviate: "database user" made through
	// the API, "API key user" from the server's settings).
	Kind string `json:"kind"`
	// Active: the user may log in (a database user may be deactivated).
	Active bool `json:"active"`
	// Roles are the names of the roles the user holds.
	Roles []string `json:"roles"`
}
