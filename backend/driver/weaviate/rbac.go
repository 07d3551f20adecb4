package weaviate

import (
	"regexp"
	"strings"

	"app/backend/driver"
)

// A key whose roles lack a permission (RBAC, 1.28+) is refused with a sentence such as
// "rbac: authorization, forbidden action: user 'reader' has insufficient permissions to
// read_data [[Domain: data, Collection: Author, Tenant: *, Object: *]]", over REST (403), in a
// GraphQL error and over gRPC (PermissionDenied). Issue 40, item 4: every view and tool says
// instead "not permitted: <what> on <collection> needs <permission>", never a blank grid or a
// generic failure. The words live here, in the driver whose server speaks RBAC.

// rbacRefusal reads the action and the collection from the server's sentence.
var rbacRefusal = regexp.MustCompile(`insufficient permissions to (\w+) \[\[([^\]]*)\]\]`)

// rbacWhat says what each of Weaviate's actions does, in the grid's words. A refusal
// (notPermitted) and the connection page's permissions (access.go) both say an action with
// these words, so a permission reads the same where it is refused and where it is listed.
var rbacWhat = map[string]string{
	"read_data":                "reading rows",
	"create_data":              "adding rows",
	"update_data":              "changing rows",
	"delete_data":              "deleting rows",
	"read_collections":         "reading the collection's definition",
	"create_collections":       "creating a collection",
	"update_collections":       "changing a collection's definition",
	"delete_collections":       "deleting a collection",
	"read_tenants":             "reading tenants",
	"create_tenants":           "adding tenants",
	"update_tenants":           "changing tenants",
	"delete_tenants":           "deleting tenants",
	"read_backups":             "reading backups",
	"manage_backups":           "making or restoring backups",
	"read_cluster":             "reading the cluster",
	"read_nodes":               "reading the nodes",
	"read_roles":               "reading roles",
	"create_roles":             "creating roles",
	"update_roles":             "changing roles",
	"delete_roles":             "deleting roles",
	"read_users":               "reading users",
	"create_users":             "creating users",
	"update_users":             "changing users",
	"delete_users":             "deleting users",
	"assign_and_revoke_users":  "giving and taking roles from users",
	"read_groups":              "reading groups",
	"assign_and_revoke_groups": "giving and taking roles from groups",
	"read_aliases":             "reading aliases",
	"create_aliases":           "creating aliases",
	"update_aliases":           "changing aliases",
	"delete_aliases":           "deleting aliases",
	"read_replicate":           "reading replica moves",
	"create_replicate":         "moving replicas",
	"update_replicate":         "changing replica moves",
	"delete_replicate":         "deleting replica moves",
	"manage_namespaces":        "managing namespaces",
	"read_mcp":                 "reading through the server's MCP endpoint",
	"create_mcp":               "adding through the server's MCP endpoint",
	"update_mcp":               "changing through the server's MCP endpoint",
}

// actionWords says action in words: the driver's, or its name with spaces for one it does
// not know (a newer server's).
func actionWords(action string) string {
	if what, ok := rbacWhat[action]; ok {
		return what
	}
	return strings.ReplaceAll(action, "_", " ")
}

// scopeWords says what a permission's scope covers, from its fields by lower-case name
// (collection, tenant, role, users, group, alias, namespace): a named collection, or every
// one, before anything else, since most actions are on collections; "the database" where
// it names nothing.
func scopeWords(scope map[string]string) string {
	every := func(v string) bool { return v == "" || v == "*" }
	for _, k := range []struct{ field, one, all string }{
		{"role", "role ", "every role"},
		{"users", "user ", "every user"},
		{"user", "user ", "every user"},
		{"group", "group ", "every group"},
		{"alias", "alias ", "every alias"},
		{"namespace", "namespace ", "every namespace"},
	} {
		if v, ok := scope[k.field]; ok {
			if every(v) {
				return k.all
			}
			return k.one + v
		}
	}
	c, ok := scope["collection"]
	switch {
	case !ok:
		return "the database"
	case every(c):
		c = "every collection"
	}
	if t := scope["tenant"]; !every(t) {
		c += " (tenant " + t + ")"
	}
	return c
}

// notPermitted turns the server's RBAC refusal into the sentence the issue names, or returns
// nil when msg is not one.
func notPermitted(msg string) error {
	m := rbacRefusal.FindStringSubmatch(msg)
	if m == nil {
		return nil
	}
	action, scope := m[1], map[string]string{}
	for _, part := range strings.Split(m[2], ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), ":")
		scope[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
	}
	return driver.Errorf(driver.KindNotPermitted, "not permitted: %s on %s needs %s", actionWords(action), scopeWords(scope), action)
}
