package weaviate

import "testing"

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
