package tools

import (
	"context"
	"time"

	"app/backend/driver"
)

// DefaultSchemaMaxAge is how old a schema read list_tables, describe_table and search_schema may
// answer from. The host's end of a plugin keeps its connection's reads and drops them at every
// call App sends that may change a schema (from the window or an AI client), so only a change
// made by another program can be this late; the window's own views read fresh (docs/mcp.md,
// "Schema reads").
const DefaultSchemaMaxAge = 2 * time.Second

// schemaMaxAge is Deps.SchemaMaxAge or its default.
func (d Deps) schemaMaxAge() time.Duration {
	if d.SchemaMaxAge > 0 {
		return d.SchemaMaxAge
	}
	return DefaultSchemaMaxAge
}

// cachedSchema is a driver that keeps its schema reads (grpcdriver.Conn: every connection the
// app opens). A driver in this process without it (tests, benches) is read on every call.
type cachedSchema interface {
	CachedTables(ctx context.Context, maxAge time.Duration) ([]driver.Table, error)
	CachedDescribe(ctx context.Context, table string, maxAge time.Duration) (*driver.TableInfo, error)
}

// listTables is ListTables, from a read at most schemaMaxAge old where the driver keeps one.
func (d Deps) listTables(ctx context.Context, drv driver.Driver) ([]driver.Table, error) {
	if c, ok := drv.(cachedSchema); ok {
		return c.CachedTables(ctx, d.schemaMaxAge())
	}
	return drv.ListTables(ctx)
}

// describeTable is DescribeTable under the same rule. Its slices are shared: read them only.
func (d Deps) describeTable(ctx context.Context, drv driver.Driver, table string) (*driver.TableInfo, error) {
	if c, ok := drv.(cachedSchema); ok {
		return c.CachedDescribe(ctx, table, d.schemaMaxAge())
	}
	return drv.DescribeTable(ctx, table)
}
