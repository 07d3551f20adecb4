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

// rbacWhat says what each of Weaviate's actions does, in the grid's words.
var rbacWhat = map[string]string{
	"read_data":          "reading rows",
	"create_data":        "adding rows",
	"update_data":        "changing rows",
	"delete_data":        "deleting rows",
	"read_collections":   "reading the collection's definition",
	"create_collections": "creating a collection",
	"update_collections": "changing a collection's definition",
	"delete_collections": "deleting a collection",
	"read_tenants":       "reading tenants",
	"create_tenants":     "adding tenants",
	"update_tenants":     "changing tenants",
	"delete_tenants":     "deleting tenants",
	"read_backups":       "reading backups",
	"manage_backups":     "making or restoring backups",
	"read_cluster":       "reading the cluster",
	"read_nodes":         "reading the nodes",
	"read_roles":         "reading roles",
	"read_users":         "reading users",
	"read_aliases":       "reading aliases",
}

// notPermitted turns the server's RBAC refusal into the sentence the issue names, or returns
// nil when msg is not one.
func notPermitted(msg string) error {
	m := rbacRefusal.FindStringSubmatch(msg)
	if m == nil {
		return nil
	}
	action, scope := m[1], m[2]
	what, ok := rbacWhat[action]
	if !ok {
		what = strings.ReplaceAll(action, "_", " ")
	}
	on := "the database"
	for _, part := range strings.Split(scope, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), ":")
		if strings.TrimSpace(k) == "Collection" {
			switch v = strings.TrimSpace(v); v {
			case "", "*":
				on = "every collection"
			default:
				on = v
			}
		}
	}
	return driver.Errorf(driver.KindNotPermitted, "not permitted: %s on %s needs %s", what, on, action)
}
