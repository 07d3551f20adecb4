package weaviate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// Issue 40, item 4: the connection page shows the key's own user, roles and permissions and,
// for a key that may read them, the cluster's roles and users, read-only. The node has RBAC
// on: the admin (a root user) makes the role article-reader and gives it to reader (an API
// key of the server's settings) and to carol (a database user), who also holds the built-in
// viewer role. Every expected value is read from the node with the root key.
func TestAConnectionSaysWhoItIsAndWhatItMayDo(t *testing.T) {
	n := rbacNode(t)
	ctx := ctxT(t)
	role := `{"name":"article-reader","permissions":[{"action":"read_collections","collections":{"collection":"*"}},{"action":"read_data","data":{"collection":"Article"}},{"action":"read_tenants","tenants":{"collection":"Article","tenant":"*"}}]}`
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/roles", rawBody(role), nil); err != nil {
		t.Fatal(err)
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/users/reader/assign", rawBody(`{"roles":["article-reader"]}`), nil); err != nil {
		t.Fatal(err)
	}
	var carol struct {
		APIKey string `json:"apikey"`
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/users/db/carol", nil, &carol); err != nil {
		t.Fatal(err)
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/users/carol/assign", rawBody(`{"roles":["article-reader","viewer"],"userType":"db"}`), nil); err != nil {
		t.Fatal(err)
	}
	read := func(t *testing.T, key string) *driver.AccessReport {
		t.Helper()
		a, err := open(t, n, func(s *driver.Settings) { s.APIKey = key }).AccessControl(ctx)
		if err != nil {
			t.Fatalf("AccessControl: %v", err)
		}
		if !a.Enforced || a.Auth != "an API key" {
			t.Fatalf("enforced %v, auth %q on an RBAC node with a key", a.Enforced, a.Auth)
		}
		return a
	}

	t.Run("a reader's own user, its role and each permission in words", func(t *testing.T) {
		a := read(t, "reader-key")
		if a.User != "reader" || len(a.Roles) != 1 || a.Roles[0].Name != "article-reader" || a.Roles[0].BuiltIn {
			t.Fatalf("own part %+v", a)
		}
		if got, want := permissionKeys(a.Roles[0]), nodeRole(t, ctx, n, "article-reader"); !slices.Equal(got, want) {
			t.Fatalf("permissions %v, the node's %v", got, want)
		}
		var words []string
		for _, p := range a.Roles[0].Permissions {
			words = append(words, p.Words)
		}
		want := []string{"reading the collection's definition on every collection", "reading rows on Article", "reading tenants on Article"}
		if !slices.Equal(words, want) {
			t.Fatalf("in words %q, want %q", words, want)
		}
	})

	t.Run("a key lacking read_roles and read_users gets its own part and a note, not an error", func(t *testing.T) {
		a := read(t, "reader-key")
		if a.RolesShown || a.UsersShown || a.AllRoles != nil || a.Users != nil {
			t.Fatalf("a reader was shown the cluster's part: %+v", a)
		}
		if !strings.Contains(a.Note, "neither read_roles nor read_users") || !strings.Contains(a.Note, "not shown") {
			t.Fatalf("note %q", a.Note)
		}
	})

	t.Run("the admin sees every role with its permissions and every user", func(t *testing.T) {
		a := read(t, "admin-key")
		if a.User != "admin" || !a.RolesShown || !a.UsersShown || a.Note != "" {
			t.Fatalf("admin %+v", a)
		}
		var roles []struct {
			Name string `json:"name"`
		}
		if err := n.DoJSON(ctx, http.MethodGet, "/v1/authz/roles", nil, &roles); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range roles {
			names = append(names, r.Name)
		}
		sort.Strings(names)
		var got []string
		for _, r := range a.AllRoles {
			got = append(got, r.Name)
			if want := nodeRole(t, ctx, n, r.Name); !slices.Equal(permissionKeys(r), want) {
				t.Fatalf("role %s: %v, the node's %v", r.Name, permissionKeys(r), want)
			}
			if r.BuiltIn != (r.Name != "article-reader") {
				t.Fatalf("role %s built in: %v", r.Name, r.BuiltIn)
			}
		}
		if !slices.Equal(got, names) {
			t.Fatalf("roles %v, the node's %v", got, names)
		}
		if want := nodeUsers(t, ctx, n, n.APIKey); !slices.Equal(userLines(a.Users), want) {
			t.Fatalf("users %v, the node's %v", userLines(a.Users), want)
		}
	})

	t.Run("a key with read_roles and read_users sees the lists as the server filters them", func(t *testing.T) {
		a := read(t, carol.APIKey)
		if a.User != "carol" || len(a.Roles) != 2 || !a.RolesShown || !a.UsersShown || a.Note != "" {
			t.Fatalf("carol %+v", a)
		}
		var roles []struct {
			Name string `json:"name"`
		}
		if err := n.DoJSONAs(ctx, carol.APIKey, http.MethodGet, "/v1/authz/roles", nil, &roles); err != nil {
			t.Fatal(err)
		}
		var want, got []string
		for _, r := range roles {
			want = append(want, r.Name)
		}
		for _, r := range a.AllRoles {
			got = append(got, r.Name)
		}
		if sort.Strings(want); len(got) == 0 || !slices.Equal(got, want) {
			t.Fatalf("carol's roles %v, the node answers her %v", got, want)
		}
		if want := nodeUsers(t, ctx, n, carol.APIKey); !slices.Equal(userLines(a.Users), want) {
			t.Fatalf("users %v, the node answers carol %v", userLines(a.Users), want)
		}
	})
}

// A server without database users (AUTHENTICATION_DB_USERS_ENABLED off) lists none at
// /v1/users/db, not even the API-key users of its settings, even to a root user: the users
// are read from the roles they hold, as the node answers each role's assignments.
func TestWithoutDatabaseUsersTheUsersAreThoseHoldingRoles(t *testing.T) {
	opts := weaviatetest.RBACOptions()
	n := weaviatetest.StartWith(t, opts)
	ctx := ctxT(t)
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/users/reader/assign", rawBody(`{"roles":["viewer"]}`), nil); err != nil {
		t.Fatal(err)
	}
	var listed []any
	if err := n.DoJSON(ctx, http.MethodGet, "/v1/users/db", nil, &listed); err != nil || len(listed) != 0 {
		t.Fatalf("the node lists %d database users (%v): the premise is gone", len(listed), err)
	}
	// The users a key is shown are those holding the roles it may read (a viewer does not see
	// root), as the node answers each role's assignments to the root key.
	usersOf := func(t *testing.T, key string) []string {
		t.Helper()
		var roles []struct {
			Name string `json:"name"`
		}
		if err := n.DoJSONAs(ctx, key, http.MethodGet, "/v1/authz/roles", nil, &roles); err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{}
		for _, role := range roles {
			if role.Name == "read-only" {
				continue // its assignments are refused even to the root key (403)
			}
			var as []struct {
				UserID string `json:"userId"`
			}
			if err := n.DoJSON(ctx, http.MethodGet, "/v1/authz/roles/"+role.Name+"/user-assignments", nil, &as); err != nil {
				t.Fatal(err)
			}
			for _, a := range as {
				if !slices.Contains(want[a.UserID], role.Name) {
					want[a.UserID] = append(want[a.UserID], role.Name)
				}
			}
		}
		var lines []string
		for name, roles := range want {
			sort.Strings(roles)
			lines = append(lines, fmt.Sprintf("%s %v true", name, roles))
		}
		sort.Strings(lines)
		return lines
	}
	for _, c := range []struct{ name, key string }{{"the root user", "admin-key"}, {"a viewer", "reader-key"}} {
		t.Run(c.name, func(t *testing.T) {
			a, err := open(t, n, func(s *driver.Settings) { s.APIKey = c.key }).AccessControl(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if want := usersOf(t, c.key); !a.UsersShown || len(want) == 0 || !slices.Equal(userLines(a.Users), want) || a.Note != "" {
				t.Fatalf("users %v (note %q), the roles' assignments %v", userLines(a.Users), a.Note, want)
			}
			for _, u := range a.Users {
				if u.Kind != "API key user (the server's settings)" {
					t.Fatalf("%s is a %q", u.Name, u.Kind)
				}
			}
		})
	}
}

// On 1.39.0 a namespaced user's own-info repeats each permission of its role many times
// over; the connection lists each once, as many as the role has. On 1.35.2 (no namespaces)
// the same holds for a database user holding the built-in admin role.
func TestEachOwnPermissionIsListedOnce(t *testing.T) {
	n := weaviatetest.StartWith(t, weaviatetest.NamespacesOptions())
	ctx := ctxT(t)
	var key string
	if hasNamespaces(nodeVersion(t, n)) {
		key = namespaceUser(t, ctx, n, "acme", "alice")
	} else {
		var created struct {
			APIKey string `json:"apikey"`
		}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/users/db/alice", nil, &created); err != nil {
			t.Fatal(err)
		}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/users/alice/assign", rawBody(`{"roles":["admin"],"userType":"db"}`), nil); err != nil {
			t.Fatal(err)
		}
		key = created.APIKey
	}
	var own struct {
		Roles []struct {
			Permissions []json.RawMessage `json:"permissions"`
		} `json:"roles"`
	}
	if err := n.DoJSONAs(ctx, key, http.MethodGet, "/v1/users/own-info", nil, &own); err != nil || len(own.Roles) != 1 {
		t.Fatalf("own-info: %v, %d roles", err, len(own.Roles))
	}
	distinct := map[string]bool{}
	for _, p := range own.Roles[0].Permissions {
		var v any
		_ = json.Unmarshal(p, &v)
		b, _ := json.Marshal(v) // keys sorted: the same permission, the same text
		distinct[string(b)] = true
	}
	a, err := open(t, n, func(s *driver.Settings) { s.APIKey = key }).AccessControl(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Roles) != 1 || a.Roles[0].Name != "admin" || len(a.Roles[0].Permissions) != len(distinct) {
		t.Fatalf("the node answers %d permissions, %d distinct; the driver lists %+v", len(own.Roles[0].Permissions), len(distinct), a.Roles)
	}
	t.Logf("own-info: %d permissions, %d distinct", len(own.Roles[0].Permissions), len(distinct))
}

// A node without RBAC checks no roles: the connection says so in words, with the key's user
// where it has one.
func TestANodeWithoutRBACSaysItChecksNoRoles(t *testing.T) {
	for _, c := range []struct {
		name    string
		variant weaviatenode.Variant
		auth    string
	}{
		{"an API key without RBAC", weaviatenode.APIKey, "an API key"},
		{"anonymous access", weaviatenode.Anonymous, "anonymous access"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := sharedNode(t, c.variant)
			ctx := ctxT(t)
			var user string
			if n.APIKey != "" {
				var own struct {
					Username string `json:"username"`
				}
				if err := n.DoJSON(ctx, http.MethodGet, "/v1/users/own-info", nil, &own); err != nil {
					t.Fatal(err)
				}
				user = own.Username
			}
			a, err := open(t, n, nil).AccessControl(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if a.Enforced || a.User != user || a.Auth != c.auth || len(a.Roles) != 0 || a.RolesShown || a.UsersShown {
				t.Fatalf("got %+v (the node's user %q)", a, user)
			}
			if !strings.Contains(a.Note, "does not check roles (RBAC is off)") {
				t.Fatalf("note %q", a.Note)
			}
		})
	}
}

// rbacNode is a node with RBAC and database users on: admin is a root user, reader a key
// with no role yet.
func rbacNode(t *testing.T) *weaviatenode.Node {
	t.Helper()
	opts := weaviatetest.Options(weaviatenode.APIKey)
	opts.APIKey = "admin-key"
	opts.Env = []string{
		"AUTHENTICATION_APIKEY_ALLOWED_KEYS=admin-key,reader-key",
		"AUTHENTICATION_APIKEY_USERS=admin,reader",
		"AUTHENTICATION_DB_USERS_ENABLED=true",
		"AUTHORIZATION_RBAC_ENABLED=true",
		"AUTHORIZATION_RBAC_ROOT_USERS=admin",
	}
	return weaviatetest.StartWith(t, opts)
}

// nodeRole is role's permissions as the node answers the root key, each as "action scope"
// once, sorted.
func nodeRole(t *testing.T, ctx context.Context, n *weaviatenode.Node, role string) []string {
	t.Helper()
	var r struct {
		Permissions []map[string]any `json:"permissions"`
	}
	if err := n.DoJSON(ctx, http.MethodGet, "/v1/authz/roles/"+role, nil, &r); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range r.Permissions {
		line := fmt.Sprint(p["action"])
		for k, v := range p {
			if k != "action" {
				fields, _ := v.(map[string]any)
				keys := make([]string, 0, len(fields))
				for f := range fields {
					keys = append(keys, f)
				}
				sort.Strings(keys)
				for _, f := range keys {
					line += fmt.Sprintf(" %s=%v", strings.ToLower(f), fields[f])
				}
			}
		}
		seen[line] = true
	}
	out := make([]string, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// permissionKeys is r's permissions in nodeRole's form.
func permissionKeys(r driver.Role) []string {
	out := make([]string, 0, len(r.Permissions))
	for _, p := range r.Permissions {
		line := p.Action
		if p.Scope != "" {
			for _, part := range strings.Split(p.Scope, ", ") {
				k, v, _ := strings.Cut(part, " ")
				line += " " + k + "=" + v
			}
		}
		out = append(out, line)
	}
	sort.Strings(out)
	return out
}

// nodeUsers is /v1/users/db as the node answers key, each user as "name roles active", by
// name.
func nodeUsers(t *testing.T, ctx context.Context, n *weaviatenode.Node, key string) []string {
	t.Helper()
	var users []struct {
		UserID string   `json:"userId"`
		Active bool     `json:"active"`
		Roles  []string `json:"roles"`
	}
	if err := n.DoJSONAs(ctx, key, http.MethodGet, "/v1/users/db", nil, &users); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, u := range users {
		sort.Strings(u.Roles)
		out = append(out, fmt.Sprintf("%s %v %v", u.UserID, u.Roles, u.Active))
	}
	sort.Strings(out)
	return out
}

func userLines(us []driver.User) []string {
	var out []string
	for _, u := range us {
		out = append(out, fmt.Sprintf("%s %v %v", u.Name, u.Roles, u.Active))
	}
	sort.Strings(out)
	return out
}
