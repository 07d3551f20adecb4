package weaviate

import (
	"net/http"
	"strings"
	"testing"

	"app/backend/driver"
)

// The names a key sees on a cluster with namespaces (namespaces.go): a qualified name is in
// its namespace's group, and only Weaviate's namespace syntax qualifies one.
func TestAQualifiedCollectionIsInItsNamespacesGroup(t *testing.T) {
	for _, c := range []struct {
		name, group, label string
		collection         bool
	}{
		{"acme:Article", "acme", "Article", true},
		{"acme-2:Article_x", "acme-2", "Article_x", true},
		{"Article", "", "Article", true},
		{"Ac:Article", "Ac", "Article", false}, // a namespace is lower case, 3 to 36 long
		{"ab:Article", "ab", "Article", false},
		{"acme-:Article", "acme-", "Article", false},
		{"acme:Art icle", "acme", "Art icle", false},
		{":Article", "", ":Article", false},
		{"acme:", "", "acme:", false},
	} {
		group, label := tableGroup(c.name)
		if group != c.group || label != c.label || isCollectionName(c.name) != c.collection {
			t.Errorf("%q: group %q label %q collection %v, want %q %q %v", c.name, group, label, isCollectionName(c.name), c.group, c.label, c.collection)
		}
	}
}

// A 410 and a namespace's refusals are sentences of the driver's, never a status.
func TestAGoneOrRefusedRequestIsSaidInWords(t *testing.T) {
	d := &Driver{hasNamespaces: true}
	for _, c := range []struct {
		name   string
		status int
		msg    string
		kind   driver.Kind
		want   string
	}{
		{"a class-less object path", http.StatusGone, "getting an object without a class is not supported; use /objects/{className}/{id}", driver.KindUnsupported,
			"GET /v1/objects/x is not available on this cluster: it has namespaces (Weaviate 1.38+), where requests that name no collection and GraphQL are retired; name the collection in the path, e.g. /v1/objects/<collection>/<uuid>"},
		{"a class-less list", http.StatusGone, "listing objects without a class is not supported; specify the ?class= query parameter", driver.KindUnsupported,
			"GET /v1/objects/x is not available on this cluster: it has namespaces (Weaviate 1.38+), where requests that name no collection and GraphQL are retired; name the collection, e.g. GET /v1/objects?class=<collection>"},
		{"a class-less reference path", http.StatusGone, "adding a reference without a class is not supported; use /objects/{className}/{id}/references/{propertyName}", driver.KindUnsupported,
			"GET /v1/objects/x is not available on this cluster: it has namespaces (Weaviate 1.38+), where requests that name no collection and GraphQL are retired; name the collection in the path, e.g. /v1/objects/<collection>/<uuid>/references/<property>"},
		{"GraphQL", http.StatusGone, "graphql api is not supported in the current cluster configuration", driver.KindUnsupported,
			"GET /v1/objects/x is not available on this cluster: it has namespaces (Weaviate 1.38+), where requests that name no collection and GraphQL are retired; GraphQL is not served there: the grid reads over gRPC, and in the editor a Get or an Aggregate is translated to gRPC, or write a REST line such as GET /v1/objects?class=<collection>"},
		{"an operator's key creating a collection", http.StatusForbidden, "user 'admin' must be namespaced on a namespaces-enabled cluster", driver.KindNotPermitted,
			`not permitted: GET /v1/objects/x needs a key bound to a namespace; this cluster has namespaces, and the key of "admin" is an operator's, which reads and writes every namespace's collections but creates none (use the key of a namespace's user)`},
		{"a suspended namespace's key", http.StatusUnauthorized, "unauthorized: instance suspended", driver.KindAuth,
			driver.AuthPrefix + "the key's namespace is suspended: the server accepts none of its keys until its operator resumes it"},
		{"a write to a namespace being resumed", http.StatusServiceUnavailable, "instance resuming, retry shortly", driver.KindUnsupported,
			"GET /v1/objects/x was refused: the namespace is being resumed; try again in a moment"},
		{"a qualified name from a namespaced key", http.StatusUnprocessableEntity, "'Article' is not a valid class name", driver.KindInvalidArgument,
			"GET /v1/objects/x was refused ('Article' is not a valid class name): this cluster has namespaces, where the key of a namespace's user names its collections by their short names (Article) and an operator's key by their namespace's (acme:Article)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := d.statusError(c.status, []byte(`{"error":[{"message":"`+c.msg+`"}]}`), "GET /v1/objects/x")
			if driver.KindOf(err) != c.kind || err.Error() != c.want {
				t.Fatalf("got %v (kind %s)\nwant %s (kind %s)", err, driver.KindOf(err), c.want, c.kind)
			}
			if strings.Contains(err.Error(), "HTTP") {
				t.Fatalf("a status in the words: %v", err)
			}
		})
	}
	t.Run("a server without namespaces keeps its own reason for a bad name", func(t *testing.T) {
		err := (&Driver{}).statusError(http.StatusUnprocessableEntity, []byte(`{"error":[{"message":"'Acme:Article' is not a valid class name"}]}`), "creating Acme:Article")
		if err.Error() != "creating Acme:Article was refused: 'Acme:Article' is not a valid class name" {
			t.Fatal(err)
		}
	})
}
