package app

import (
	"context"
	"strings"
	"sync"

	"app/app/dto"
	"app/backend/connections"
	"app/backend/core"
	"app/backend/driver"
	"app/backend/explore"
)

// Opener is the part of connections.Manager the explorer needs: open (connect) a saved
// connection, find its driver while it is open, and close it.
type Opener interface {
	Open(ctx context.Context, idOrName string) (driver.Driver, connections.Connection, error)
	Driver(id string) (driver.Driver, bool)
	Disconnect(id string) error
	// OpenHeld opens a connection held by who (the window), so an AI client's disconnect
	// leaves it open (connections.Manager.Release).
	OpenHeld(ctx context.Context, idOrName, who string) (driver.Driver, connections.Connection, error)
}

// serverVersioner is implemented by drivers that know the database's version.
type serverVersioner interface{ ServerVersion() string }

// ExplorerAPI is the data explorer's view of the backend: connect a saved connection, list
// its tables, describe one and read pages of rows. Its exported methods are bound to the
// frontend (frontend/wailsjs/go/app/ExplorerAPI).
//
// Only Connect opens a connection. The other calls need it open and answer `unavailable`
// otherwise, so a connection dropped by a failing health check (a revoked API key) stays
// closed until the user reconnects (SPEC A, Authentication 3).
type ExplorerAPI struct {
	base
	open Opener

	mu sync.Mutex
	// pendingRows is how many rows the window holds changes of (SetPendingChanges);
	// quitAsking is set while the quit question is open.
	pendingRows int
	quitAsking  bool

	// transfers are the running exports, imports and maps, tenantLists the last listing of
	// each multi-tenant table's tenants (ListTenants serves windows of them), maps the last
	// maps' points and layouts.
	transfers   explore.Running
	tenantLists explore.TenantLists
	maps        explore.MapCache
}

// NewExplorerAPI returns the facade over the open-connections manager.
func NewExplorerAPI(open Opener) *ExplorerAPI {
	return &ExplorerAPI{open: open}
}

func (a *ExplorerAPI) wire(c *core.Core) {
	a.open = c.OpenConnections()
	c.OnConnectionDropped(a.connectionDropped)
	c.OnConnectionRestored(a.connectionRestored)
}

// connectionRestored tells the frontend that a dropped connection came back by itself.
func (a *ExplorerAPI) connectionRestored(id string) {
	a.emit(EventConnectionRestored, dto.ConnectionRestoredEvent{ID: id})
}

// connectionDropped tells the frontend that a failing health check dropped a connection.
// Core calls it (Core.OnConnectionDropped) from the health-check goroutine.
func (a *ExplorerAPI) connectionDropped(id string, reason error) {
	a.emit(EventConnectionDropped, dto.ConnectionDroppedEvent{ID: id, Code: errorCode(reason), Message: errorMessage(reason)})
}

// Connect opens the saved connection (it checks reachability, TLS and the credential) and
// keeps it open until Disconnect or a failing health check. Connecting an open connection
// is a no-op.
func (a *ExplorerAPI) Connect(id string) (dto.ConnectionStateDTO, error) {
	if strings.TrimSpace(id) == "" {
		return dto.ConnectionStateDTO{}, invalidArgument("a connection id is required")
	}
	ctx, cancel := a.callContext()
	defer cancel()
	d, c, err := a.open.OpenHeld(ctx, id, connections.HolderWindow)
	if err != nil {
		return dto.ConnectionStateDTO{}, apiError(err)
	}
	st := dto.ConnectionStateDTO{ID: c.ID, Connected: true, Capabilities: dto.FromCapabilities(driver.Offered(d))}
	if v, ok := d.(serverVersioner); ok {
		st.ServerVersion = v.ServerVersion()
	}
	if r, ok := d.(driver.Router); ok {
		st.Route = r.Route()
	}
	return st, nil
}

// Disconnect closes the connection; closing a closed one is not an error.
func (a *ExplorerAPI) Disconnect(id string) error {
	if strings.TrimSpace(id) == "" {
		return invalidArgument("a connection id is required")
	}
	return apiError(a.open.Disconnect(id))
}

// driver returns the open driver of a connection, or the `unavailable` error.
func (a *ExplorerAPI) driver(id string) (driver.Driver, error) {
	if strings.TrimSpace(id) == "" {
		return nil, invalidArgument("a connection id is required")
	}
	d, ok := a.open.Driver(id)
	if !ok {
		return nil, unavailable("the connection is not open: connect to it first")
	}
	return d, nil
}

// ListTables lists the tables (collections) of an open connection in the database's order.
// It never returns null: no tables is [].
func (a *ExplorerAPI) ListTables(id string) ([]dto.TableDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return nil, err
	}
	ctx, cancel := a.callContext()
	defer cancel()
	tables, err := d.ListTables(ctx)
	if err != nil {
		return nil, apiError(err)
	}
	return dto.FromTables(tables), nil
}

// TableCounts counts the rows of every table of an open connection, a few tables at a
// time. The sidebar asks for it after ListTables, so the tree shows before the counts. A
// table that cannot be counted has a null count and a message; the call fails only when
// the tables cannot be listed.
func (a *ExplorerAPI) TableCounts(id string) ([]dto.TableCountDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return nil, err
	}
	ctx, cancel := a.callContext()
	defer cancel()
	counts, err := explore.CountTables(ctx, d, func(table string, ts []driver.Tenant) {
		// The tree's list opens from this listing at once, then reads fresh.
		a.tenantLists.Put(id, table, ts)
	})
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]dto.TableCountDTO, len(counts))
	for i, c := range counts {
		out[i] = dto.TableCountDTO{Name: c.Name, Count: c.Count, Estimated: c.Estimated, Tenants: c.Tenants, Message: c.Note}
		if c.Err != nil {
			out[i].Message = errorMessage(c.Err)
		}
	}
	return out, nil
}

// DescribeTable returns a table's columns (uuid first, the properties, vector last) with
// their types and read-only flags, and the settings that matter to browsing.
func (a *ExplorerAPI) DescribeTable(id, table string) (dto.TableInfoDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return dto.TableInfoDTO{}, err
	}
	if strings.TrimSpace(table) == "" {
		return dto.TableInfoDTO{}, invalidArgument("a table name is required")
	}
	ctx, cancel := a.callContext()
	defer cancel()
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		return dto.TableInfoDTO{}, apiError(err)
	}
	return dto.FromTableInfo(info), nil
}

// Browse reads one page of rows with the grid's filters (ANDed) and sort: limit rows from
// offset (limit 0 means 100, at most 1000). Vector cells are previews the driver cuts
// (Vectors reads them whole). A filter that cannot run is answered with no rows and
// Refused naming the filter and the reason (the whole table is never shown instead).
// Paging stops at row 10,000 with a notice on the page that reaches it.
func (a *ExplorerAPI) Browse(id, table string, req dto.BrowseRequestDTO) (dto.GridDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return dto.GridDTO{}, err
	}
	limit, err := explore.PageLimit(table, req.Offset, req.Limit)
	if err != nil {
		return dto.GridDTO{}, apiError(err)
	}
	filters, sorts := dto.DriverFilters(req.Filters), dto.DriverSorts(req.Sort)
	if err := explore.CheckFilters(filters, sorts); err != nil {
		return dto.GridDTO{}, apiError(err)
	}
	ctx, cancel := a.callContext()
	defer cancel()
	g, err := d.Browse(ctx, table, driver.Page{Offset: req.Offset, Limit: limit, Vectors: driver.VectorsPreview}, filters, sorts)
	if r := dto.RefusalOf(err, filters); r != nil {
		// The columns still head the empty grid, so the panel keeps its layout.
		var cols []dto.ColumnDTO
		if info, derr := d.DescribeTable(ctx, table); derr == nil {
			cols = dto.Columns(info.Columns)
		}
		if cols == nil {
			cols = []dto.ColumnDTO{}
		}
		return dto.GridDTO{Columns: cols, Rows: [][]*string{}, Offset: req.Offset, Refused: r}, nil
	}
	if err != nil {
		return dto.GridDTO{}, apiError(err)
	}
	return dto.FromGrid(g), nil
}

// Count counts the rows matching the filters (all rows without) with the database's
// aggregate. A filter that cannot run gives a null count and Refused.
func (a *ExplorerAPI) Count(id, table string, filters []dto.FilterDTO) (dto.CountResultDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return dto.CountResultDTO{}, err
	}
	if strings.TrimSpace(table) == "" {
		return dto.CountResultDTO{}, invalidArgument("a table name is required")
	}
	df := dto.DriverFilters(filters)
	if err := explore.CheckFilters(df, nil); err != nil {
		return dto.CountResultDTO{}, apiError(err)
	}
	ctx, cancel := a.callContext()
	defer cancel()
	n, estimated, err := explore.CountWithin(ctx, d, table, df, explore.ExactWithin)
	if r := dto.RefusalOf(err, df); r != nil {
		return dto.CountResultDTO{Refused: r}, nil
	}
	if err != nil {
		return dto.CountResultDTO{}, apiError(err)
	}
	return dto.CountResultDTO{Count: &n, Estimated: estimated}, nil
}
