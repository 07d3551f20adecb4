package weaviate

import (
	"encoding/json"
	"testing"
)

func TestAnRBACRefusalIsSaidInWords(t *testing.T) {
	for _, c := range []struct{ name, msg, want string }{
		{"a REST read of rows", "msg:rbac: authorization, forbidden action: user 'reader' has insufficient permissions to read_data [[Domain: data, Collection: Author, Tenant: *, Object: *]] code:403",
			"not permitted: reading rows on Author needs read_data"},
		{"GraphQL's introspection over every collection", "due to GraphQL introspection, this role must have the permission to `read_collections` on `*` (all) collections: rbac: authorization, forbidden action: user 'reader' has insufficient permissions to read_collections [[Domain: collections, Collection: *]]",
			"not permitted: reading the collection's definition on every collection needs read_collections"},
		{"an action the driver has no words for keeps its name", "user 'x' has insufficient permissions to manage_replicas [[Domain: replicate, Collection: Article]]",
			"not permitted: manage replicas on Article needs manage_replicas"},
		{"no collection named: the database", "user 'x' has insufficient permissions to read_cluster [[Domain: cluster]]",
			"not permitted: reading the cluster on the database needs read_cluster"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := notPermitted(c.msg); err == nil || err.Error() != c.want {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
	if err := notPermitted("class Author not found"); err != nil {
		t.Fatalf("another refusal read as RBAC: %v", err)
	}
}

// A permission listed on the connection page reads as its refusal does, from the same words,
// and a role answering a permission many times over (1.39.0's namespaced own-info) lists it
// once.
func TestAPermissionReadsAsItsRefusal(t *testing.T) {
	for _, c := range []struct{ name, perm, scope, words string }{
		{"rows of one collection", `{"action":"read_data","data":{"collection":"Article","object":"*","tenant":"*"}}`,
			"collection Article, object *, tenant *", "reading rows on Article"},
		{"every collection's definition", `{"action":"read_collections","collections":{"collection":"*"}}`,
			"collection *", "reading the collection's definition on every collection"},
		{"one tenant", `{"action":"update_data","data":{"collection":"Article","tenant":"t1"}}`,
			"collection Article, tenant t1", "changing rows on Article (tenant t1)"},
		{"roles name roles, not collections", `{"action":"read_roles","roles":{"role":"*","scope":"match"}}`,
			"role *, scope match", "reading roles on every role"},
		{"no scope: the database", `{"action":"read_cluster"}`, "", "reading the cluster on the database"},
		{"an action without words keeps its name", `{"action":"manage_widgets","widgets":{"collection":"A"}}`,
			"collection A", "manage widgets on A"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var wp wirePermission
			if err := json.Unmarshal([]byte(c.perm), &wp); err != nil {
				t.Fatal(err)
			}
			if p := toPermission(wp); p.Scope != c.scope || p.Words != c.words {
				t.Fatalf("got %q / %q, want %q / %q", p.Scope, p.Words, c.scope, c.words)
			}
		})
	}
	var r wireRole
	if err := json.Unmarshal([]byte(`{"name":"admin","permissions":[{"action":"read_data","data":{"collection":"*"}},{"action":"read_data","data":{"collection":"*"}},{"action":"read_cluster"},{"action":"read_data","data":{"collection":"*"}}]}`), &r); err != nil {
		t.Fatal(err)
	}
	if got := toRole(r); !got.BuiltIn || len(got.Permissions) != 2 {
		t.Fatalf("got %+v, want the built-in admin role's two permissions once each", got)
	}
}
