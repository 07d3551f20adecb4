package dto

import (
	"app/backend/driver"
	"app/backend/explore"
)

// ConnectionStateDTO is what Connect reports about an open connection. It never carries
// settings or the API key.
type ConnectionStateDTO struct {
	ID        string `json:"id"`
	Connected bool   `json:"connected"`
	// ServerVersion is the database's version when the driver knows it ("" otherwise).
	ServerVersion string `json:"serverVersion"`
	// Route says how the connection reaches the database where not the usual way
	// (driver.Router), for the status line; "" the usual way.
	Route string `json:"route"`
	// Capabilities are what the connection's driver offers (its plugin's answer).
	Capabilities CapabilitiesDTO `json:"capabilities"`
}

// CapabilitiesDTO is the part of driver.Capabilities the window uses: the editor's language,
// whether it runs REST lines, where paging stops, the default page size, atomic edits.
type CapabilitiesDTO struct {
	QueryLanguage   string `json:"queryLanguage"`
	RESTLines       bool   `json:"restLines"`
	MaxResults      int    `json:"maxResults"`
	DefaultPageSize int    `json:"defaultPageSize"`
	Transactions    bool   `json:"transactions"`
	// The optional features the driver offers (driver.Offered): the window shows what it
	// has and nothing it lacks.
	Scan      bool `json:"scan"`
	Tenants   bool `json:"tenants"`
	Nodes     bool `json:"nodes"`
	Templates bool `json:"templates"`
	// Backups: the connection page can list, make and restore the database's backups.
	Backups bool `json:"backups"`
	// AccessControl: the connection page can say who the connection is and what it may do.
	AccessControl bool `json:"accessControl"`
	// SearchModes: the driver describes its searches by words; a plugin from before them
	// (protocol 2) is searched near vectors and rows only, until it is updated.
	SearchModes bool `json:"searchModes"`
}

// TableDTO is one table (collection) of an open connection, as the sidebar tree shows it.
type TableDTO struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// MultiTenant: the rows live in tenants, listed under the table (ListTenants).
	MultiTenant bool `json:"multiTenant"`
	// Kind is what the table is where not a plain table ("view"); "" for a table.
	Kind string `json:"kind"`
	// Estimate is the database's estimate of its rows, shown until they are counted (null: none).
	Estimate *int64 `json:"estimate"`
	// Group is the level of the tree the table sits in where its database has one (a
	// Weaviate namespace), "" none; Label is its name within the group, shown there. Name is
	// still what every call takes.
	Group string `json:"group"`
	Label string `json:"label"`
}

// TableCountDTO is the row count of one table. Count is null when the table cannot be
// counted, and Message then says why; a multi-tenant table has no rows of its own, and
// Tenants is how many tenants it has instead.
type TableCountDTO struct {
	Name  string `json:"name"`
	Count *int64 `json:"count"`
	// Estimated: Count is the database's estimate (the exact count ran past its time).
	Estimated bool   `json:"estimated"`
	Tenants   *int   `json:"tenants,omitempty"`
	Message   string `json:"message,omitempty"`
}

// TenantDTO is one tenant of a multi-tenant table: Table opens it as a table of its own.
type TenantDTO struct {
	Name   string `json:"name"`
	Table  string `json:"table"`
	Status string `json:"status"`
}

// TenantStatus is an activity status a person may set on a tenant: what ExplorerAPI's
// SetTenantStatus takes (as text: a bound method's argument of a named type has no
// generated binding type).
type TenantStatus string

// The statuses a person may set.
const (
	TenantActive    TenantStatus = driver.TenantActive
	TenantInactive  TenantStatus = driver.TenantInactive
	TenantOffloaded TenantStatus = driver.TenantOffloaded
)

// TenantPageDTO is a window of a multi-tenant table's tenants, by name, among those whose name
// holds the filter: Matched of Total match, and Tenants are the matches from Offset on.
type TenantPageDTO struct {
	Total   int         `json:"total"`
	Matched int         `json:"matched"`
	Offset  int         `json:"offset"`
	Tenants []TenantDTO `json:"tenants"`
	// Kept: the window came from a listing kept earlier (the tree's count), not read now.
	Kept bool `json:"kept"`
}

// ColumnDTO is one grid column: uuid first (primary key, read-only), the properties in
// schema order, vector last (read-only).
type ColumnDTO struct {
	Name string `json:"name"`
	// Type is the database's own type name, shown as it is ("vector" and "vectors" are the
	// contract's vector types).
	Type       string `json:"type"`
	PrimaryKey bool   `json:"primaryKey"`
	ReadOnly   bool   `json:"readOnly"`
	// JSON marks columns whose cells are JSON text (arrays, objects, references, vectors).
	JSON        bool   `json:"json"`
	Description string `json:"description"`
	// Filterable lists the filter operators the column accepts under the collection's
	// settings (driver.Operator values, e.g. "equals", "is_null"); [] when none.
	Filterable []string `json:"filterable"`
	// Sortable tells whether the grid can sort on the column.
	Sortable bool `json:"sortable"`
	// Preview marks a vector column whose cells are previews (VectorPreview JSON: the length
	// and the first numbers); ExplorerAPI.Vectors reads the full values.
	Preview bool `json:"preview"`
	// Tokenization of a text column ("word", "field", ...; "" for others) and, per filter
	// operator, what it will match under it (the filter editor shows it).
	Tokenization string            `json:"tokenization"`
	FilterNotes  map[string]string `json:"filterNotes"`
	// Blocked are operators that fit the column but cannot run here, with the driver's
	// reason (the menu shows them disabled); {} when none.
	Blocked map[string]string `json:"blocked"`
	// Kind is the portable column kind (driver.ColumnKind: "text", "integer", "array", ...),
	// Of an array's element kind, Dimension a vector's declared length (0 unknown). The
	// window branches on these; Type is what it shows.
	Kind      driver.ColumnKind `json:"kind"`
	Of        driver.ColumnKind `json:"of"`
	Dimension int               `json:"dimension"`
}

// TableSettingsDTO are the collection settings worth showing next to the columns.
type TableSettingsDTO struct {
	MultiTenancy bool     `json:"multiTenancy"`
	Vectorizer   string   `json:"vectorizer"`
	NamedVectors []string `json:"namedVectors"`
	// OwnVector: with NamedVectors, the collection also has its own vector ("" by name).
	OwnVector bool `json:"ownVector"`
	// VectorizedVectors are the named vectors a vectorizer fills (nearText runs on them).
	VectorizedVectors   []string `json:"vectorizedVectors"`
	IndexNullState      bool     `json:"indexNullState"`
	IndexPropertyLength bool     `json:"indexPropertyLength"`
}

// TableInfoDTO is DescribeTable's answer.
type TableInfoDTO struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// PrimaryKey names the key columns in the key's order (none: rows are not edited one by one).
	PrimaryKey []string         `json:"primaryKey"`
	Columns    []ColumnDTO      `json:"columns"`
	Settings   TableSettingsDTO `json:"settings"`
	// Details is the table's definition in words, in sections (never null).
	Details []DetailSectionDTO `json:"details"`
	// Searches are the table's searches by words as its driver describes them, the default
	// first (never null; empty: only near a vector or a row). The driver's own type, whose
	// JSON leaves empty fields out: the frontend's reader fills them (api/read.ts).
	Searches []driver.SearchMode `json:"searches"`
	// Profiles: a search of the table can carry the database's own profile of it
	// (SearchRequestDTO.Profile).
	Profiles bool `json:"profiles"`
}

// DetailSectionDTO is one part of a table's definition in words.
type DetailSectionDTO struct {
	Title string          `json:"title"`
	Items []DetailItemDTO `json:"items"`
}

// DetailItemDTO is one setting in words; Setting is the database's name for it, which a
// filter refusal quotes.
type DetailItemDTO struct {
	Label   string `json:"label"`
	Value   string `json:"value"`
	Setting string `json:"setting"`
}

// GridDTO is one read-only page of rows. Every cell is display text or null: numbers keep
// their exact digits (a JavaScript number would round an int64), booleans are "true" or
// "false", and arrays, objects and vectors are JSON text (SPEC A, Grid rows).
type GridDTO struct {
	Columns []ColumnDTO `json:"columns"`
	// Rows[i][j] belongs to Columns[j]; each cell is a string or null.
	Rows [][]*string `json:"rows"`
	// Offset is the row number of Rows[0] within the whole table.
	Offset  int  `json:"offset"`
	HasMore bool `json:"hasMore"`
	// Notice explains a limit the page hit (paging stops at row 10,000).
	Notice string `json:"notice"`
	// Refused is set, with no rows, when a filter cannot run (REGEX, a missing index
	// setting, a value that is not of the column's type): the whole table is never shown
	// instead.
	Refused *FilterRefusalDTO `json:"refused"`
}

// FilterDTO is one column filter as the user typed it: Value holds the value (a
// comma-separated list for in / not_in, the lower bound for between), Value2 the upper
// bound of between; the null and emptiness operators take none. The backend types the
// values from the schema.
type FilterDTO struct {
	Column   string `json:"column"`
	Operator string `json:"operator"`
	Value    string `json:"value"`
	Value2   string `json:"value2"`
	// Group: filters with the same non-zero group are ORed (driver.Filter.Group).
	Group int `json:"group,omitempty"`
}

// SortDTO orders the rows by one column.
type SortDTO struct {
	Column     string `json:"column"`
	Descending bool   `json:"descending"`
}

// BrowseRequestDTO is one page request of the grid: a window of rows, the filters (all
// must hold: AND) and the sort, first key first.
type BrowseRequestDTO struct {
	Offset  int         `json:"offset"`
	Limit   int         `json:"limit"`
	Filters []FilterDTO `json:"filters"`
	Sort    []SortDTO   `json:"sort"`
}

// FilterRefusalDTO says which filter cannot run and why.
type FilterRefusalDTO struct {
	// Index is the refused filter's place in the request's filters (-1 when the driver's
	// message names none of them), Column and Operator repeat it.
	Index    int    `json:"index"`
	Column   string `json:"column"`
	Operator string `json:"operator"`
	// Reason is why, for the user ("IsNull needs indexNullState, which ..."); Message is
	// the driver's whole sentence ("the filter x is null cannot run: ...").
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// CountResultDTO is Count's answer: the rows matching the filters, or the refusal (Count null).
type CountResultDTO struct {
	Count *int64 `json:"count"`
	// Estimated: Count is the database's estimate (the exact count ran past its time).
	Estimated bool              `json:"estimated"`
	Refused   *FilterRefusalDTO `json:"refused"`
}

// Columns are the grid's columns (the filter operators and notes as text, never null).
func Columns(cols []driver.Column) []ColumnDTO {
	out := make([]ColumnDTO, 0, len(cols))
	for _, c := range cols {
		ops := make([]string, 0, len(c.Filterable))
		for _, op := range c.Filterable {
			ops = append(ops, string(op))
		}
		notes := make(map[string]string, len(c.FilterNotes))
		for op, n := range c.FilterNotes {
			notes[string(op)] = n
		}
		blocked := make(map[string]string, len(c.Blocked))
		for op, n := range c.Blocked {
			blocked[string(op)] = n
		}
		out = append(out, ColumnDTO{
			Name: c.Name, Type: c.Type, PrimaryKey: c.PrimaryKey, ReadOnly: c.ReadOnly,
			JSON: c.Array, Description: c.Description, Filterable: ops, Sortable: c.Sortable,
			Tokenization: c.Tokenization, FilterNotes: notes, Blocked: blocked, Preview: c.Preview,
			Kind: c.Kind, Of: c.Of, Dimension: c.Dimension,
		})
	}
	return out
}

// FromTableInfo is DescribeTable's answer for the window.
func FromTableInfo(t *driver.TableInfo) TableInfoDTO {
	return TableInfoDTO{
		Name:        t.Name,
		Description: t.Description,
		PrimaryKey:  nonNil(t.PrimaryKey),
		Columns:     Columns(t.Columns),
		Settings: TableSettingsDTO{
			MultiTenancy:        t.Settings.MultiTenancy,
			Vectorizer:          t.Settings.Vectorizer,
			NamedVectors:        nonNil(t.Settings.NamedVectors),
			OwnVector:           t.Settings.OwnVector,
			VectorizedVectors:   nonNil(t.Settings.VectorizedVectors),
			IndexNullState:      t.Settings.IndexNullState,
			IndexPropertyLength: t.Settings.IndexPropertyLength,
		},
		Details:  details(t.Details),
		Searches: nonNil(t.Searches),
		Profiles: t.Profiles,
	}
}

func details(ds []driver.DetailSection) []DetailSectionDTO {
	out := make([]DetailSectionDTO, len(ds))
	for i, d := range ds {
		items := make([]DetailItemDTO, len(d.Items))
		for j, it := range d.Items {
			items[j] = DetailItemDTO(it)
		}
		out[i] = DetailSectionDTO{Title: d.Title, Items: items}
	}
	return out
}

// FromGrid is a page of rows with every cell as display text or null (explore.CellText).
func FromGrid(g *driver.Grid) GridDTO {
	rows := make([][]*string, 0, len(g.Rows))
	for _, r := range g.Rows {
		row := make([]*string, len(r))
		for j, v := range r {
			row[j] = explore.CellText(v)
		}
		rows = append(rows, row)
	}
	return GridDTO{Columns: Columns(g.Columns), Rows: rows, Offset: g.Offset, HasMore: g.HasMore, Notice: g.Notice}
}

// DriverFilters are the grid's filters for the driver (nil when none).
func DriverFilters(in []FilterDTO) []driver.Filter {
	if len(in) == 0 {
		return nil
	}
	out := make([]driver.Filter, 0, len(in))
	for _, f := range in {
		out = append(out, driver.Filter{Column: f.Column, Operator: driver.Operator(f.Operator), Value: f.Value, Value2: f.Value2, Group: f.Group})
	}
	return out
}

// DriverSorts is the grid's sort for the driver (nil when none).
func DriverSorts(in []SortDTO) []driver.Sort {
	if len(in) == 0 {
		return nil
	}
	out := make([]driver.Sort, 0, len(in))
	for _, s := range in {
		out = append(out, driver.Sort{Column: s.Column, Descending: s.Descending})
	}
	return out
}

// RefusalOf is the refusal of the filter a refused_filter error names (explore.RefusalOf),
// nil for any other error.
func RefusalOf(err error, filters []driver.Filter) *FilterRefusalDTO {
	if r := explore.RefusalOf(err, filters); r != nil {
		return &FilterRefusalDTO{Index: r.Index, Column: r.Column, Operator: r.Operator, Reason: r.Reason, Message: r.Message}
	}
	return nil
}

// ClusterNodeDTO is one node of the connection's cluster: its health, version and totals, and what
// each table keeps on it.
type ClusterNodeDTO struct {
	Name    string         `json:"name"`
	Status  string         `json:"status"`
	Version string         `json:"version"`
	Objects int64          `json:"objects"`
	Shards  int            `json:"shards"`
	Tables  []NodeTableDTO `json:"tables"`
}

// NodeTableDTO is one table's shards (loaded ones among them) and objects on a node.
// A table's own node listing (TableNodes) lists its shards too.
type NodeTableDTO struct {
	Table         string         `json:"table"`
	Shards        int            `json:"shards"`
	Loaded        int            `json:"loaded"`
	Objects       int64          `json:"objects"`
	ShardList     []NodeShardDTO `json:"shardList"`
	ShardsLeftOut int            `json:"shardsLeftOut"`
}

// NodeShardDTO is one shard of a table on a node.
type NodeShardDTO struct {
	Name           string `json:"name"`
	Objects        int64  `json:"objects"`
	Loaded         bool   `json:"loaded"`
	VectorIndexing string `json:"vectorIndexing"`
}

// nonNil is s, or an empty list for nil: the window reads lists, never null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// ConnectionDroppedEvent is the payload of EventConnectionDropped.
type ConnectionDroppedEvent struct {
	ID string `json:"id"`
	// Code and Message are the reason in the `code: message` parts, e.g. "auth" and
	// "Authentication failed: ...".
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ConnectionRestoredEvent is the payload of EventConnectionRestored.
type ConnectionRestoredEvent struct {
	ID string `json:"id"`
}

// FromCapabilities is the part of a driver's capabilities the window uses.
func FromCapabilities(c driver.Capabilities) CapabilitiesDTO {
	return CapabilitiesDTO{QueryLanguage: c.QueryLanguage, RESTLines: c.RESTLines, MaxResults: c.MaxResults,
		DefaultPageSize: c.DefaultPageSize, Transactions: c.Transactions,
		Scan: c.Offers(c.Scan), Tenants: c.Offers(c.Tenants), Nodes: c.Offers(c.Nodes), Templates: c.Offers(c.Templates), Backups: c.Backups, AccessControl: c.AccessControl,
		SearchModes: c.SearchModes}
}

// FromTables are the sidebar's tables (never null).
func FromTables(tables []driver.Table) []TableDTO {
	out := make([]TableDTO, 0, len(tables))
	for _, t := range tables {
		out = append(out, TableDTO{Name: t.Name, Description: t.Description, MultiTenant: t.MultiTenant, Kind: t.Kind, Estimate: t.Estimate, Group: t.Group, Label: t.Label})
	}
	return out
}

// Grid reads back a grid the window sent (explore.GridFromText).
func (g GridDTO) Grid() *driver.Grid {
	cols := make([]driver.Column, len(g.Columns))
	for i, c := range g.Columns {
		cols[i] = driver.Column{Name: c.Name, Type: c.Type, PrimaryKey: c.PrimaryKey, ReadOnly: c.ReadOnly,
			Kind: c.Kind, Of: c.Of, Dimension: c.Dimension}
	}
	return explore.GridFromText(cols, g.Rows)
}

// FromNodes are the cluster's nodes with each table's shards on them (lists never null).
func FromNodes(nodes []driver.Node) []ClusterNodeDTO {
	out := make([]ClusterNodeDTO, len(nodes))
	for i, n := range nodes {
		out[i] = ClusterNodeDTO{Name: n.Name, Status: n.Status, Version: n.Version, Objects: n.Objects, Shards: n.Shards, Tables: []NodeTableDTO{}}
		for _, t := range n.Tables {
			nt := NodeTableDTO{Table: t.Table, Shards: t.Shards, Loaded: t.Loaded, Objects: t.Objects, ShardList: []NodeShardDTO{}, ShardsLeftOut: t.ShardsLeftOut}
			for _, s := range t.ShardList {
				nt.ShardList = append(nt.ShardList, NodeShardDTO(s))
			}
			out[i].Tables = append(out[i].Tables, nt)
		}
	}
	return out
}

// FromTenants is a window of a multi-tenant table's tenants (never null); kept says it came
// from an earlier listing.
func FromTenants(total int, w explore.TenantWindow, offset int, kept bool) TenantPageDTO {
	out := TenantPageDTO{Total: total, Matched: w.Matched, Offset: offset, Tenants: []TenantDTO{}, Kept: kept}
	for _, t := range w.Tenants {
		out.Tenants = append(out.Tenants, TenantDTO{Name: t.Name, Table: t.Table, Status: t.Status})
	}
	return out
}
