package driver

import (
	"context"
	"strings"
)

// A multi-tenant table (Weaviate: a collection with multi-tenancy on) holds no rows of its
// own: every row lives in one tenant. A tenant opens as a table of its own, named
// "<table>@<tenant>", so the grid, filters, counts, edits, searches, exports and the map work
// on it exactly as on a table, through the same calls. Neither a Weaviate collection name nor
// a tenant name can hold "@" ([A-Za-z][_0-9A-Za-z]*, "<namespace>:" before it on a cluster with
// namespaces, and [A-Za-z0-9_-]{1,64}), so the split is never ambiguous. This is the one place that builds and splits such a name.
const TenantSeparator = "@"

// TenantTable is the table name of tenant in table ("" tenant: the table itself).
func TenantTable(table, tenant string) string {
	if tenant == "" {
		return table
	}
	return table + TenantSeparator + tenant
}

// SplitTenant is TenantTable's inverse: the table and the tenant ("" for a plain table name).
func SplitTenant(name string) (table, tenant string) {
	table, tenant, _ = strings.Cut(name, TenantSeparator)
	return table, tenant
}

// Tenant is one tenant of a multi-tenant table.
type Tenant struct {
	Name string `json:"name"`
	// Table is the name that opens the tenant as a table (TenantTable).
	Table string `json:"table"`
	// Status is the activity status by its current name (Weaviate: ACTIVE, INACTIVE,
	// OFFLOADED, and the transitional OFFLOADING, ONLOADING); only an active tenant is read or
	// written.
	Status string `json:"status"`
}

// Tenant statuses a person may set (Weaviate 1.26+ names; HOT, COLD and FROZEN are the older
// names of the same three).
const (
	TenantActive    = "ACTIVE"
	TenantInactive  = "INACTIVE"
	TenantOffloaded = "OFFLOADED"
)

// Tenants is what a driver offers beyond the contract for multi-tenant tables: list a table's
// tenants, and change one's activity status.
type Tenants interface {
	ListTenants(ctx context.Context, table string) ([]Tenant, error)
	SetTenantStatus(ctx context.Context, table, tenant, status string) error
}
