package weaviate

import (
	"net/http"
	"regexp"
	"strings"

	"app/backend/driver"
)

// Namespaces (Weaviate 1.38+, NAMESPACES_ENABLED; issue 40, item 3), as weaviate-server
// v1.39.0 has them (its source: usecases/schema/namespacing, adapters/handlers/rest; held by
// namespaces_integration_test.go):
//
//   - A cluster with namespaces runs with GraphQL off and RBAC on (it refuses to start
//     otherwise) and one replica per shard. Its /v1/graphql answers HTTP 410 ("graphql api is
//     not supported in the current cluster configuration"), and so do the paths that name no
//     collection: GET /v1/objects without ?class=, and /v1/objects/{id} and
//     /v1/objects/{id}/references/{property} under any method. A multi-target reference
//     written as a beacon without its collection is refused (400/422). The driver sends none
//     of these: every object path names the collection, reads go over gRPC, references name
//     their collection (refTarget).
//   - A namespace is made by an operator (POST /v1/namespaces/{name}, a root key). A key is
//     bound to a namespace when it is a database user's made as "<namespace>:<user>"
//     (POST /v1/users/db/acme:alice); a static key (AUTHENTICATION_APIKEY_*) is an operator's,
//     bound to none.
//   - A namespaced key sees its own collections by their short names ("Article"), in
//     /v1/schema, object answers, gRPC and error messages alike, and is refused any name
//     holding the separator. An operator's key sees every namespace's collections by their
//     qualified names ("acme:Article"), which it uses as is in paths, ?class=, bodies and gRPC;
//     it reads and writes rows, but only a namespaced key may create a collection (403 "user
//     'admin' must be namespaced on a namespaces-enabled cluster").
//
// So a table name here is the name the key sees, qualified or not, and the driver sends it
// unchanged. ListTables gives a qualified name's namespace as the table's Group (the level of
// the tree above it) and the short name as its Label; a namespaced key's tables have none.

// namespaceSeparator joins a namespace and a collection name (Weaviate's
// schema.NamespaceSeparator). No collection name of a cluster without namespaces holds it.
const namespaceSeparator = ":"

// graphQLGone is what a cluster with namespaces answers on /v1/graphql (HTTP 410).
const graphQLGone = "graphql api is not supported in the current cluster configuration"

// tableGroup splits a collection name as the key sees it into its namespace and its name
// within it: ("acme", "Article") for "acme:Article", ("", name) for a name without one.
func tableGroup(name string) (group, label string) {
	if ns, short, ok := strings.Cut(name, namespaceSeparator); ok && ns != "" && short != "" {
		return ns, short
	}
	return "", name
}

// namespaced reports whether the server has shown it has namespaces (its GraphQL is gone).
func (d *Driver) namespaced() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.hasNamespaces
}

// goneError is a 410 in words: on a cluster with namespaces the server has retired GraphQL
// and the paths that name no collection. what names the request ("GET /v1/objects/<uuid>",
// "the update of <uuid>"); msg is the server's own reason, which names the path to use.
func goneError(what, msg string) error {
	lower := strings.ToLower(msg)
	var how string
	switch {
	case strings.Contains(lower, "graphql"):
		how = "GraphQL is not served there: the grid reads over gRPC, and in the editor a Get or an Aggregate is translated to gRPC, or write a REST line such as GET /v1/objects?class=<collection>"
	case strings.Contains(lower, "?class="):
		how = "name the collection, e.g. GET /v1/objects?class=<collection>"
	case strings.Contains(lower, "references"):
		how = "name the collection in the path, e.g. /v1/objects/<collection>/<uuid>/references/<property>"
	default:
		how = "name the collection in the path, e.g. /v1/objects/<collection>/<uuid>"
	}
	return driver.Errorf(driver.KindUnsupported, "%s is not available on this cluster: it has namespaces (Weaviate 1.38+), where requests that name no collection and GraphQL are retired; %s", what, how)
}

// mustBeNamespaced is the server's refusal of a collection's creation to an operator's key.
var mustBeNamespaced = regexp.MustCompile(`user '([^']*)' must be namespaced on a namespaces-enabled cluster`)

// namespaceRefusal is a namespace's refusal in words, or nil when msg is none:
//
//   - an operator's key creating a collection (it must belong to a namespace);
//   - the server's words for a namespace that is not active ("instance suspended",
//     "instance resuming, retry shortly", "instance unavailable"), which name neither the
//     namespace nor the concept, by design;
//   - a name the key may not use: a namespaced key naming a collection with its namespace is
//     told "'Article' is not a valid class name" (the server takes the key's own namespace
//     out of every message it sends that key).
//
// status is the HTTP status, 401 for gRPC's Unauthenticated, 0 for another gRPC code.
func (d *Driver) namespaceRefusal(status int, msg, what string) error {
	if strings.Contains(msg, "is not a valid class name") && d.namespaced() {
		return driver.Errorf(driver.KindInvalidArgument, "%s was refused (%s): this cluster has namespaces, where the key of a namespace's user names its collections by their short names (Article) and an operator's key by their namespace's (acme:Article)", what, msg)
	}
	if m := mustBeNamespaced.FindStringSubmatch(msg); m != nil {
		return driver.Errorf(driver.KindNotPermitted, "not permitted: %s needs a key bound to a namespace; this cluster has namespaces, and the key of %q is an operator's, which reads and writes every namespace's collections but creates none (use the key of a namespace's user)", what, m[1])
	}
	lower := strings.ToLower(msg)
	switch {
	case strings.Contains(lower, "instance suspended"):
		if status == http.StatusUnauthorized {
			return driver.Errorf(driver.KindAuth, "the key's namespace is suspended: the server accepts none of its keys until its operator resumes it")
		}
		return driver.Errorf(driver.KindUnsupported, "%s was refused: the namespace is suspended, and nothing is written to it until its operator resumes it", what)
	case strings.Contains(lower, "instance resuming"):
		if status == http.StatusUnauthorized {
			return driver.Errorf(driver.KindAuth, "the key's namespace is being resumed: try again in a moment")
		}
		return driver.Errorf(driver.KindUnsupported, "%s was refused: the namespace is being resumed; try again in a moment", what)
	case strings.Contains(lower, "instance unavailable"):
		if status == http.StatusUnauthorized {
			return driver.Errorf(driver.KindAuth, "the key's namespace is being deleted or is gone: the server accepts none of its keys")
		}
		return driver.Errorf(driver.KindUnsupported, "%s was refused: the namespace is being deleted or is gone", what)
	}
	return nil
}

// namespaceName is Weaviate's namespace name syntax (schema.NamespaceNameRegexCore: 3 to 36
// lowercase letters, digits and inner hyphens).
var namespaceName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,34}[a-z0-9]$`)

// isCollectionName reports whether s can name a collection as a key sees it: a GraphQL name
// ("Article"), or one qualified by its namespace ("acme:Article") as an operator's key on a
// cluster with namespaces sees every collection.
func isCollectionName(s string) bool {
	if ns, short, ok := strings.Cut(s, namespaceSeparator); ok {
		return namespaceName.MatchString(ns) && isName(short)
	}
	return isName(s)
}
