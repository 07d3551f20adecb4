// Package driver is the contract between the host (connections, UI, MCP
// tools) and a database driver. It is written Weaviate-first (SPEC part A)
// but holds nothing a SQL driver could not implement.
//
// Every method takes a context.Context first and returns promptly once it is
// cancelled. Every error is a *Error whose Kind the caller maps from (see
// KindOf) and whose text is safe to show: auth failures start with
// "Authentication failed:", TLS and network failures with "Connection
// failed:", and no message carries a raw Go error or a secret.
package driver

import "context"

// Pinger is the health part of a Driver.
type Pinger interface {
	// Ping checks the connection's health with the credential (Weaviate:
	// GET /v1/meta). A failed check returns a KindAuth or KindConnection error
	// that says why.
	Ping(ctx context.Context) error
}

// Driver is one open connection to one database instance.
type Driver interface {
	Pinger

	// Connect checks reachability, TLS and the credential. It must succeed
	// before any other call.
	Connect(ctx context.Context) error

	// ListTables lists the tables (collections).
	ListTables(ctx context.Context) ([]Table, error)

	// DescribeTable returns the table's columns (primary key first), types,
	// read-only flags and the settings that gate filters.
	DescribeTable(ctx context.Context, table string) (*TableInfo, error)

	// Browse loads one page of rows. With no filters and no sort it is a
	// plain page read; filters are ANDed. A filter that cannot run is
	// refused with a KindRefusedFilter error, never answered with the whole
	// table. Paging stops at Capabilities.MaxResults: a page that would
	// cross it is cut short with Grid.Notice saying why, and a page that
	// starts beyond it is refused (KindUnsupported).
	Browse(ctx context.Context, table string, page Page, filters []Filter, sort []Sort) (*Grid, error)

	// Count returns how many rows match the filters (all rows without).
	Count(ctx context.Context, table string, filters []Filter) (int64, error)

	// Search runs a vector, keyword or hybrid search on table and returns the best limit
	// matches as a grid: the primary key, the properties, then the measure that ranks
	// them ("distance" or "score"). The driver checks the request (req.Check and the
	// table's schema) and builds it in its own language; ranked matches are not paged.
	Search(ctx context.Context, table string, req SearchRequest, limit int) (*Grid, error)

	// Execute runs editor text (Weaviate: GraphQL read, or a REST line), a read capped at
	// opts.MaxRows rows.
	Execute(ctx context.Context, text string, opts ExecOptions) (*Result, error)

	// Classify tells the approval layer whether text reads or writes,
	// whether it is destructive, and its form. It needs no connection, and
	// it is the only reader of the text outside Execute: no caller parses
	// statements again. Text that cannot be classified, or that Execute
	// would refuse whatever the database holds (a GraphQL mutation), is
	// reported as a write with the error, so nothing is asked about or sent.
	Classify(text string) (Classification, error)

	// CheckCells types the cells a person typed into one row of table, as Insert and Update
	// will, without sending anything: column -> the reason for each cell that would be
	// refused (empty when all fit). A nil value is NULL; the primary key is checked as a key
	// (none: the database makes one); a read-only column is refused.
	CheckCells(ctx context.Context, table string, values map[string]*string) (map[string]string, error)

	// Insert adds rows and reports each row's outcome. One failure does not
	// stop the others; the error is only for the whole batch failing
	// (unknown table, cancelled context before anything ran).
	Insert(ctx context.Context, table string, rows []Row) ([]RowResult, error)

	// Update writes only the given cells of each row, found by its Key. A row
	// without a key is skipped and logged, no request sent.
	Update(ctx context.Context, table string, rows []Row) ([]RowResult, error)

	// Delete removes each row by its Key. A row without a key is skipped and
	// logged, no request sent.
	Delete(ctx context.Context, table string, rows []Row) ([]RowResult, error)

	// Capabilities describes what the driver offers.
	Capabilities() Capabilities

	// Close releases the connection. It is safe to call more than once.
	Close() error
}
