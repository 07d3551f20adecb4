package driver

import (
	"context"
	"encoding/json"
	"strings"
)

// Table is one entry of ListTables (a Weaviate collection).
type Table struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// MultiTenant: the table's rows live in its tenants (Tenants lists them; TenantTable
	// names one), and the table itself reads and writes none.
	MultiTenant bool `json:"multiTenant,omitempty"`
	// Kind says what the table is where it is not a plain table, in words ("view",
	// "materialized view", "partitioned table"); "" for a table.
	Kind string `json:"kind,omitempty"`
	// Estimate is the database's own estimate of the table's rows (its statistics), shown
	// until the rows are counted; nil where it has none.
	Estimate *int64 `json:"estimate,omitempty"`
	// Group is the level above the table in the connection's tree, where the database has
	// one the key sees several of: a Weaviate namespace (an operator's key on a cluster with
	// namespaces sees "acme:Article" in the group "acme"), or a schema. "" where there is
	// none: the tree lists the table at the top. Tables of one Group are shown together, the
	// groups in the order of their first table.
	Group string `json:"group,omitempty"`
	// Label is the table's name within its Group, as the tree shows it under the group
	// ("Article"); "" means Name. Name stays the table's name for every call.
	Label string `json:"label,omitempty"`
}

// Column describes one grid column.
type Column struct {
	// Name is the column name ("uuid", a property name, "vector", or for an
	// editor result the selected field / _additional member).
	Name string `json:"name"`
	// Type is the database type: "uuid", a Weaviate data type such as "text",
	// "int[]", "date", "object", a referenced collection name, or "vector".
	// Empty when unknown (editor results on computed fields).
	Type string `json:"type,omitempty"`
	// PrimaryKey marks a column of the table's primary key (TableInfo.PrimaryKey).
	PrimaryKey bool `json:"primaryKey,omitempty"`
	// ReadOnly columns are never written by Insert/Update (uuid, vector).
	ReadOnly bool `json:"readOnly,omitempty"`
	// Array marks a list type (its cells are JSON text).
	Array bool `json:"array,omitempty"`
	// Filterable lists the filter operators the column accepts, given the
	// collection settings. Empty for an editor result.
	Filterable []Operator `json:"filterable,omitempty"`
	// Sortable tells whether Browse can sort on the column.
	Sortable bool `json:"sortable,omitempty"`
	// Description is the schema description, when any.
	Description string `json:"description,omitempty"`
	// Tokenization is how the database splits a text column for filters (Weaviate: "word",
	// "lowercase", "whitespace", "field", "trigram", ...); empty for other columns.
	Tokenization string `json:"tokenization,omitempty"`
	// FilterNotes say, per operator, what the filter will match given the tokenization
	// ("equals" under word tokenization matches rows holding every word), for the filter
	// editor to show before it runs.
	FilterNotes map[Operator]string `json:"filterNotes,omitempty"`
	// Blocked are operators that fit the column but cannot run here (a table setting, or
	// the database lacks them), each with the reason in the driver's words: the filter menu
	// shows them disabled with it, where an operator that does not fit is not offered.
	Blocked map[Operator]string `json:"blocked,omitempty"`
	// Preview marks a vector column whose cells are previews (VectorPreview JSON text), as
	// a page read with VectorsPreview carries them.
	Preview bool `json:"preview,omitempty"`
	// Kind is the column's portable kind beside its database type (Type, which is shown):
	// host code and the frontend branch on kinds only. Of is an array's element kind, and
	// Dimension a vector column's length when the database declares one (0: unknown or
	// several). An empty Kind is unknown (an editor result's computed field).
	Kind      ColumnKind `json:"kind,omitempty"`
	Of        ColumnKind `json:"of,omitempty"`
	Dimension int        `json:"dimension,omitempty"`
	// Exact marks a number column (or an array of numbers) whose values are exact decimals,
	// each cell's digits its value (PostgreSQL's numeric), where a float64 would round them:
	// a file typed from the column keeps every digit. Precision and Scale are the digits it
	// declares in all and after the point (numeric(40,10): 40 and 10); Precision 0 when it
	// declares none. Scale may be negative or past Precision where the database allows it.
	Exact     bool `json:"exact,omitempty"`
	Precision int  `json:"precision,omitempty"`
	Scale     int  `json:"scale,omitempty"`
}

// ColumnKind is a portable column kind: what a value of the column is, whatever the database
// calls its type.
type ColumnKind string

// The column kinds (issue 37, item 2).
const (
	ColumnText      ColumnKind = "text"
	ColumnInteger   ColumnKind = "integer"
	ColumnNumber    ColumnKind = "number"
	ColumnBoolean   ColumnKind = "boolean"
	ColumnDateTime  ColumnKind = "datetime"
	ColumnDate      ColumnKind = "date"
	ColumnUUID      ColumnKind = "uuid"
	ColumnJSON      ColumnKind = "json"
	ColumnBinary    ColumnKind = "binary"
	ColumnArray     ColumnKind = "array"
	ColumnVector    ColumnKind = "vector"
	ColumnReference ColumnKind = "reference"
	ColumnGeo       ColumnKind = "geo"
	ColumnOther     ColumnKind = "other"
	// ColumnUnknown is the empty kind: not known (an editor result's computed field, a
	// plugin that sends none). It is no kind of ColumnKinds.
	ColumnUnknown ColumnKind = ""
)

// ColumnKinds lists every column kind.
func ColumnKinds() []ColumnKind {
	return []ColumnKind{ColumnText, ColumnInteger, ColumnNumber, ColumnBoolean, ColumnDateTime, ColumnDate, ColumnUUID,
		ColumnJSON, ColumnBinary, ColumnArray, ColumnVector, ColumnReference, ColumnGeo, ColumnOther}
}

// Scalar is the kind of the column's values: its own kind, or an array's element kind.
func (c Column) Scalar() ColumnKind {
	if c.Kind == ColumnArray {
		return c.Of
	}
	return c.Kind
}

// IsNumeric tells a column of numbers (integer or number, not an array of them).
func (c Column) IsNumeric() bool { return c.Kind == ColumnInteger || c.Kind == ColumnNumber }

// Vector column types: a single vector, or named vectors (the cell holds one per name).
const (
	TypeVector  = "vector"
	TypeVectors = "vectors"
)

// IsVector tells the vector column (kind vector; type TypeVector or TypeVectors from a plugin
// that sends no kinds).
func (c Column) IsVector() bool {
	return c.Kind == ColumnVector || c.Type == TypeVector || c.Type == TypeVectors
}

// TableSettings are the collection settings that change what a driver can do.
type TableSettings struct {
	// IndexNullState enables the IsNull filter.
	IndexNullState bool `json:"indexNullState"`
	// IndexPropertyLength enables the is empty / is not empty filters.
	IndexPropertyLength bool `json:"indexPropertyLength"`
	// IndexTimestamps enables filtering on creation/update time.
	IndexTimestamps bool `json:"indexTimestamps"`
	// MultiTenancy: the table's rows live in tenants; each tenant opens as a table of its
	// own (TenantTable), and the table itself reads and writes no rows.
	MultiTenancy bool `json:"multiTenancy"`
	// Tenant is the tenant this table name opened ("" for a table).
	Tenant string `json:"tenant,omitempty"`
	// Vectorizer is the collection's vectorizer module ("none" when absent).
	Vectorizer string `json:"vectorizer,omitempty"`
	// NamedVectors lists the named vectors; empty for a single vector.
	NamedVectors []string `json:"namedVectors,omitempty"`
	// OwnVector tells that a table with NamedVectors also has its own, unnamed vector (in
	// Weaviate, a collection's legacy vector kept when named vectors were added to it). ""
	// names it wherever vectors go by name (ScanPage.VectorNames, Row.Vectors).
	OwnVector bool `json:"ownVector,omitempty"`
	// VectorizedVectors lists the named vectors a vectorizer module fills from the rows'
	// text (so a search by words, nearText, runs on them); the collection's own vector is
	// vectorized when Vectorizer is not "none".
	VectorizedVectors []string `json:"vectorizedVectors,omitempty"`
}

// Vectors are the table's vectors by name, its own vector as "": [""] for a single vector,
// the named ones, and "" first among them when the table has its own vector too (OwnVector).
// Every place that lists a table's vectors (an export's columns, an import's mapping, the
// map) lists these.
func (s TableSettings) Vectors() []string {
	if len(s.NamedVectors) == 0 {
		return []string{""}
	}
	if s.OwnVector {
		return append([]string{""}, s.NamedVectors...)
	}
	return s.NamedVectors
}

// TableInfo is DescribeTable's answer.
type TableInfo struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Columns     []Column `json:"columns"`
	// PrimaryKey names the columns whose cells name one row (a Key), in the key's order: one
	// column or several; none when the table has no key, whose rows are then read but not
	// edited one by one.
	PrimaryKey []string      `json:"primaryKey"`
	Settings   TableSettings `json:"settings"`
	// Searches are the ways the table is searched by words, the default first; none means
	// only near a vector or a row (where it has one).
	Searches []SearchMode `json:"searches,omitempty"`
	// Definition is the database's own schema document for the table.
	Definition json.RawMessage `json:"definition,omitempty"`
	// Details is the definition in words, for a person (issue 23, item 2).
	Details []DetailSection `json:"details,omitempty"`
	// Profiles: the database profiles a search of this table on request
	// (SearchRequest.Profile, Grid.Profile).
	Profiles bool `json:"profiles,omitempty"`
}

// DetailSection is one part of a table's definition in words, e.g. "Inverted index".
type DetailSection struct {
	Title string       `json:"title"`
	Items []DetailItem `json:"items"`
}

// DetailItem is one setting in words: Label names it ("Null state indexed"), Value says what
// it is and what it means ("no: is null filters are refused"). Setting is the database's own
// name for it (Weaviate: "invertedIndexConfig.indexNullState"); a filter refusal that quotes
// a Setting is linked to its item.
type DetailItem struct {
	Label   string `json:"label"`
	Value   string `json:"value"`
	Setting string `json:"setting,omitempty"`
}

// Column returns the named column, or false.
func (t *TableInfo) Column(name string) (Column, bool) {
	for _, c := range t.Columns {
		if c.Name == name {
			return c, true
		}
	}
	return Column{}, false
}

// Page selects a window of rows. Limit 0 means the driver's default. Vectors says how the
// vector column comes: whole (the default) or as previews cut by the driver.
type Page struct {
	Offset  int        `json:"offset"`
	Limit   int        `json:"limit"`
	Vectors VectorRead `json:"vectors,omitempty"`
}

// Operator is a UI filter operator.
type Operator string

// The filter operators of the spec.
const (
	OpEquals      Operator = "equals"
	OpNotEquals   Operator = "not_equals"
	OpGreater     Operator = "greater_than"
	OpGreaterEq   Operator = "greater_or_equal"
	OpLess        Operator = "less_than"
	OpLessEq      Operator = "less_or_equal"
	OpContains    Operator = "contains"
	OpNotContains Operator = "not_contains"
	OpStartsWith  Operator = "starts_with"
	OpEndsWith    Operator = "ends_with"
	OpIn          Operator = "in"
	OpNotIn       Operator = "not_in"
	OpBetween     Operator = "between"
	OpIsNull      Operator = "is_null"
	OpIsNotNull   Operator = "is_not_null"
	OpIsEmpty     Operator = "is_empty"
	OpIsNotEmpty  Operator = "is_not_empty"
	OpRegex       Operator = "regex"
)

// Operators lists every operator in UI order.
func Operators() []Operator {
	return []Operator{OpEquals, OpNotEquals, OpGreater, OpGreaterEq, OpLess, OpLessEq,
		OpContains, OpNotContains, OpStartsWith, OpEndsWith, OpIn, OpNotIn, OpBetween,
		OpIsNull, OpIsNotNull, OpIsEmpty, OpIsNotEmpty, OpRegex}
}

// Filter is one column filter as the user typed it. Values are text; the
// driver types them from the schema. In / NotIn take a comma-separated list
// in Value; Between takes the lower bound in Value and the upper in Value2
// (both inclusive). The null and emptiness operators take no value.
//
// Filters are ANDed, except that filters with the same non-zero Group form one group whose
// filters are ORed (issue 23): "(a OR b) AND c" is a and b in group 1 and c alone.
//
// On an array column an operator is read element by element: a positive operator holds where
// any element meets it, a negative one (NotEquals, NotContains, NotIn) where no element meets
// its positive; IsEmpty holds for an array without elements, IsNull for a NULL array. The
// conformance suite holds every driver to it.
type Filter struct {
	Column   string   `json:"column"`
	Operator Operator `json:"operator"`
	Value    string   `json:"value,omitempty"`
	Value2   string   `json:"value2,omitempty"`
	Group    int      `json:"group,omitempty"`
}

// FilterGroups are filters as the terms of their AND, in the order each first appears: a
// filter without a group is a term alone, filters of one group one term of ORed filters.
func FilterGroups(filters []Filter) [][]Filter {
	var out [][]Filter
	at := map[int]int{}
	for _, f := range filters {
		if f.Group == 0 {
			out = append(out, []Filter{f})
			continue
		}
		i, ok := at[f.Group]
		if !ok {
			i = len(out)
			at[f.Group] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], f)
	}
	return out
}

// Sort orders Browse by one column.
type Sort struct {
	Column     string `json:"column"`
	Descending bool   `json:"descending,omitempty"`
}

// Grid is a table of values. Cells are JSON-friendly: nil (null), string,
// bool, or json.Number; array and object values and vectors are JSON text
// strings. Rows[i][j] belongs to Columns[j].
type Grid struct {
	Columns []Column `json:"columns"`
	Rows    [][]any  `json:"rows"`
	// Offset is the row number of Rows[0] within the whole result.
	Offset int `json:"offset"`
	// HasMore tells whether a next page may exist (and is reachable).
	HasMore bool `json:"hasMore"`
	// Notice explains a limit the grid hit, e.g. paging stopped at 10,000.
	Notice string `json:"notice,omitempty"`
	// Profile is the database's profile of the search that made the grid, when asked for
	// (SearchRequest.Profile) and given.
	Profile *QueryProfile `json:"profile,omitempty"`
}

// ResultKind tells which half of a Result is set.
type ResultKind string

// Result kinds.
const (
	ResultGrid ResultKind = "grid"
	ResultJSON ResultKind = "json"
	// ResultText is prose the database wrote to be read as it stands: a query plan.
	ResultText ResultKind = "text"
)

// Result is Execute's answer: a grid (a GraphQL Get, a query's rows), a JSON document
// (anything else), formatted with two-space indentation, or text (a plan).
type Result struct {
	Kind ResultKind      `json:"kind"`
	Grid *Grid           `json:"grid,omitempty"`
	JSON json.RawMessage `json:"json,omitempty"`
	Text string          `json:"text,omitempty"`
	// Table is the collection a grid came from, when known (for edits).
	Table string `json:"table,omitempty"`
	// Status is the HTTP status of a REST line.
	Status int `json:"status,omitempty"`
	// Truncated: ExecOptions.MaxRows cut the answer, and Notice says how to read on. (A
	// grid says so in Grid.HasMore and Grid.Notice as well.)
	Truncated bool   `json:"truncated,omitempty"`
	Notice    string `json:"notice,omitempty"`
	// Tag is the database's word for what the statement did ("SELECT 3", "INSERT 0 1"), where
	// it has one.
	Tag string `json:"tag,omitempty"`
	// Before are the results of the statements before the last, in order, when the text held
	// several: the Result itself is the last one's, so a reader of one result reads the last.
	Before []Result `json:"before,omitempty"`
}

// ExecOptions are Execute's options.
type ExecOptions struct {
	// MaxRows caps the rows a read returns (0: no cap). The driver applies it in the
	// statement itself, in its own language (a limit in the query), never by reading
	// everything and cutting afterwards; an answer that had more says so (Result.Truncated).
	MaxRows int
}

// Row is one row for Insert, Update or Delete. Insert: Values are the typed
// cells, key columns among them only when the person typed them (else the
// database gives the key); a Key given to Insert is read as those cells
// (InsertValues). Update: Key plus only the edited cells. Delete: Key.
// Values are typed from the schema: a string is parsed by the column's type
// (JSON text for arrays and objects), a Go value (number, bool, []any, map) is
// used as given, nil is null.
type Row struct {
	Key    Key            `json:"key,omitempty"`
	Values map[string]any `json:"values,omitempty"`
	// Original are an Update's edited cells as the person read them (Grid cells' text, nil for
	// NULL). A driver that can writes the row only where they still hold, and otherwise
	// fails the row KindConflict, nothing overwritten: the row changed since it was read.
	Original map[string]any `json:"original,omitempty"`
	// Vectors are written only by BatchWriter: vector name ("" for a table's single
	// vector) -> its numbers. Insert and Update never write a vector.
	Vectors map[string][]float32 `json:"vectors,omitempty"`
}

// InsertValues are the cells an insert writes: Values, with the key's cells where Values
// does not give them.
func (r Row) InsertValues() map[string]any {
	if len(r.Key) == 0 {
		return r.Values
	}
	out := make(map[string]any, len(r.Values)+len(r.Key))
	for k, v := range r.Key {
		out[k] = v
	}
	for k, v := range r.Values {
		out[k] = v
	}
	return out
}

// RowStatus is one row's outcome.
type RowStatus string

// Row outcomes.
const (
	RowOK      RowStatus = "ok"
	RowSkipped RowStatus = "skipped"
	RowFailed  RowStatus = "failed"
)

// RowResult reports what happened to rows[Index].
type RowResult struct {
	Index int `json:"index"`
	// Key is the row's key: for an insert, the one it was stored under (a key the database
	// gave it included); empty when the write never got that far.
	Key    Key       `json:"key,omitempty"`
	Status RowStatus `json:"status"`
	Kind   Kind      `json:"kind,omitempty"`
	// Message says why a row was skipped or failed.
	Message string `json:"message,omitempty"`
	// MaybeWritten: the row's write went out and its outcome is unknown (the connection
	// dropped, the batch's answer did not say): it may or may not be written. Message says so
	// in words (MaybeWritten) for a person; callers read this flag.
	MaybeWritten bool `json:"maybeWritten,omitempty"`
}

// Capabilities tell the UI and MCP what the driver offers.
type Capabilities struct {
	// QueryLanguage is the editor language ("graphql").
	QueryLanguage string `json:"queryLanguage"`
	SQL           bool   `json:"sql"`
	SchemaEdits   bool   `json:"schemaEdits"`
	SSHTunnel     bool   `json:"sshTunnel"`
	DatabaseField bool   `json:"databaseField"`
	// RESTLines: the editor also runs "<METHOD> <path> [body]" lines.
	RESTLines bool `json:"restLines"`
	// MaxResults is the deepest row paging reaches (offset + limit).
	MaxResults int `json:"maxResults"`
	// DefaultPageSize is Browse's page size when Page.Limit is 0.
	DefaultPageSize int `json:"defaultPageSize"`
	// Operators the driver knows (per-column support is in Column.Filterable).
	Operators []Operator `json:"operators"`
	// Transactions: edits are applied one row at a time, never atomically.
	Transactions bool `json:"transactions"`
	// FilterGroups: the driver reads Filter.Group (ORed groups). A plugin built before groups
	// would drop the field and AND every filter, so the app refuses groups to it instead.
	FilterGroups bool `json:"filterGroups"`
	// SearchOptions: the driver reads SearchRequest's Filters. A plugin built before them
	// would drop the filters and answer another search, so the app refuses them to it instead.
	SearchOptions bool `json:"searchOptions"`
	// SearchModes: the driver describes its searches by words in TableInfo.Searches and reads
	// SearchRequest's Mode, Params, SearchColumns and Explain. A plugin built before them is
	// searched near vectors and rows only.
	SearchModes bool `json:"searchModes"`
	// RowKeys: the driver reads Row.Key and SearchRequest.SimilarTo by column. A plugin built
	// before them reads a key of one text column only, and is sent no other.
	RowKeys bool `json:"rowKeys"`
	// CreateTable: the driver creates tables from portable columns (TableCreator).
	CreateTable bool `json:"createTable"`
	// Declared: the optional features below are stated up front (Offer fills them from the
	// interfaces the driver implements). A plugin built before them leaves it false, and the
	// host learns what it lacks only by asking.
	Declared bool `json:"declared"`
	// Scan (Scanner), BatchWrite (BatchWriter), Tenants (Tenants), Nodes (Cluster), Paths
	// (PathChecker), Templates (TemplateMaker) and Estimate (Estimator): the driver offers them.
	Scan     bool `json:"scan"`
	Estimate bool `json:"estimate"`
	// Completions (Completer): the driver names its editor language's words.
	Completions bool `json:"completions"`
	// VectorNumbers: the driver carries whole vectors as their numbers when a page asks
	// (VectorsNumbers), so the plugin protocol sends them packed and the host prints them.
	VectorNumbers bool `json:"vectorNumbers,omitempty"`
	BatchWrite    bool `json:"batchWrite"`
	Tenants       bool `json:"tenants"`
	Nodes         bool `json:"nodes"`
	Paths         bool `json:"paths"`
	Templates     bool `json:"templates"`
	// Backups (Backups): the driver backs up and restores its database; which backends a
	// connection offers, BackupBackends says.
	Backups bool `json:"backups"`
	// AccessControl (AccessControl): the driver says the connection's own user, roles and
	// permissions and, where its credential may read them, the database's roles and users.
	AccessControl bool `json:"accessControl"`
}

// Offer is d's capabilities with its optional features declared: what it implements of
// Scanner, BatchWriter, Tenants, Cluster, PathChecker, TemplateMaker, TableCreator, Backups and
// AccessControl.
func Offer(d Driver) Capabilities {
	c := d.Capabilities()
	c.Declared = true
	_, c.Scan = d.(Scanner)
	_, c.BatchWrite = d.(BatchWriter)
	_, c.Tenants = d.(Tenants)
	_, c.Nodes = d.(Cluster)
	_, c.Paths = d.(PathChecker)
	_, c.Templates = d.(TemplateMaker)
	_, c.Estimate = d.(Estimator)
	_, c.Completions = d.(Completer)
	_, c.Backups = d.(Backups)
	_, c.AccessControl = d.(AccessControl)
	if _, ok := d.(TableCreator); !ok {
		c.CreateTable = false
	}
	return c
}

// Offered is what d offers: its capabilities as declared, or for a driver that does not
// declare them (a plugin built before), what it implements, so that each feature is tried.
func Offered(d Driver) Capabilities {
	if c := d.Capabilities(); c.Declared {
		return c
	}
	return Offer(d)
}

// Offers reports whether the driver offers an optional feature: as declared, or (a plugin
// built before declaring) unknown until asked, so yes.
func (c Capabilities) Offers(declared bool) bool { return !c.Declared || declared }

// TableSpec is a table to create from portable columns (TableCreator).
type TableSpec struct {
	Name string `json:"name"`
	// Columns in order, besides the key the driver makes; the driver picks each one's type
	// from its kind (Of for an array's elements).
	Columns []ColumnSpec `json:"columns"`
	// Vectors are the table's vectors by name, "" for a single vector of its own; the rows
	// bring them (nothing is vectorized by the database).
	Vectors []string `json:"vectors,omitempty"`
}

// ColumnSpec is one column of a table to create.
type ColumnSpec struct {
	Name string     `json:"name"`
	Kind ColumnKind `json:"kind"`
	Of   ColumnKind `json:"of,omitempty"`
	// Exact: a number column (or an array's numbers) holds digits a double would round (more
	// than 15 of them, or a file's DECIMAL); the driver makes an exact type where it has one
	// (PostgreSQL's numeric), else its number type.
	Exact bool `json:"exact,omitempty"`
}

// TableCreator creates a table (import with create, issue 37 item 5). No host code builds a
// statement of any dialect: the driver turns the spec into its own, and the answer describes
// the table as the database made it, each column's Type the driver's choice. A name the
// database refuses is a KindInvalidArgument error naming the Column.
type TableCreator interface {
	CreateTable(ctx context.Context, spec TableSpec) (*TableInfo, error)
}

// Template is one entry of the query editor's template menu: a statement in the driver's own
// language, written for one table.
type Template struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// TemplateMaker is a driver that offers the editor templates in its language (contract 3,
// item 1): the host's editor knows no language's statements. The texts are written for table
// ("" for none chosen: the driver names a placeholder), and may read the table's settings (a
// collection without a vectorizer gets a hybrid search it can run).
type TemplateMaker interface {
	Templates(ctx context.Context, table string) ([]Template, error)
}

// Completions are the words the editor completes in a connection's language: each table's
// columns as the language names them, and the functions it can call.
type Completions struct {
	Tables    map[string][]string `json:"tables"`
	Functions []string            `json:"functions,omitempty"`
}

// Completer is a driver that names what its editor language completes: the host's editor
// knows no language's words (PostgreSQL: every column, and the functions of the database's
// schemas). The host falls back to each table's described columns for a driver without one.
type Completer interface {
	Completions(ctx context.Context) (*Completions, error)
}

// PathStatus is how one way of reaching the database answered a connection test (Weaviate:
// "REST", "GraphQL", "gRPC"). OK is false only when the path stands in the way of this
// connection; Detail says what was found ("ok, server 1.35.2", "off (...)", or the reason).
type PathStatus struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// PathChecker is what a driver offers beyond the contract to report each path to the
// database separately, for the connection form's Test. It runs after Connect.
type PathChecker interface {
	CheckPaths(ctx context.Context) []PathStatus
}

// Access tells whether a query reads or writes.
type Access string

// Access values.
const (
	AccessRead  Access = "read"
	AccessWrite Access = "write"
)

// Form is the shape of a statement, as the driver reads it. Callers route on it instead of
// reading the text a second time (a second reader answers differently sooner or later).
type Form string

// Form values.
const (
	// FormQuery is a statement in the driver's query language (Weaviate: GraphQL).
	FormQuery Form = "query"
	// FormRequest is a raw request to the database's API (Weaviate: a REST line).
	FormRequest Form = "request"
)

// Classification is Classify's answer for the approval layer.
type Classification struct {
	Access Access `json:"access"`
	// Destructive: the query deletes or overwrites data.
	Destructive bool `json:"destructive"`
	// Form is the statement's shape; empty when the text could not be read.
	Form Form `json:"form,omitempty"`
	// PersonOnly: the statement starts work on the whole database that only the person
	// starts, in the window or the command line (Weaviate: a backup or a restore, issue 40
	// item 5: writes of that size are the person's). MCP tools refuse it whatever the
	// connection's rights, and no approval is asked.
	PersonOnly bool `json:"personOnly,omitempty"`
}

// Write reports whether the query writes.
func (c Classification) Write() bool { return c.Access != AccessRead }

// Estimator is what a driver offers beyond the contract where an exact count can take long:
// the database's own estimate of the rows matching filters (its planner's), cheap whatever the
// table's size. The host counts exactly first and asks for the estimate only when the count
// runs past its time, and says the number is one (explore.CountWithin).
type Estimator interface {
	Estimate(ctx context.Context, table string, filters []Filter) (int64, error)
}

// Scanner is what a driver offers beyond the contract to read a whole table, past the paging
// limit (Capabilities.MaxResults), for exports and the vector map: a walk in key order with
// the database's own cursor (Weaviate: `after`), never by offset. Each call reads one page of
// keys after req.After and returns the rows among them that match req.Filters, so a filtered
// walk holds exactly the database's filtered set, by its own filter rules.
type Scanner interface {
	Scan(ctx context.Context, table string, req ScanRequest) (*ScanPage, error)
}

// ScanRequest is one step of a walk.
type ScanRequest struct {
	// After is the key the step starts after ("" for the first step): the previous page's Next.
	After string `json:"after,omitempty"`
	// Limit is how many keys the step walks (the driver's default when 0).
	Limit int `json:"limit,omitempty"`
	// Filters select rows as Browse's do (ANDed); a filter that cannot run is refused.
	Filters []Filter `json:"filters,omitempty"`
	// Vectors asks for each row's vectors (ScanPage.Vectors).
	Vectors bool `json:"vectors,omitempty"`
	// VectorNames, with Vectors, names the vectors to read, as ScanPage.VectorNames names
	// them; nil or empty reads every vector of a row. "" asks for a table's single vector: its
	// own (unnamed) vector, or its only vector whatever its name (none for a table without
	// vectors). A name the table has no vector by, or "" for a table of several named vectors
	// and no own one, is refused (KindInvalidArgument, naming the vectors it has). The page
	// then holds only the asked vectors (ScanPage.VectorNames in the table's order), and the driver reads only those from
	// the database: a map of 100,000 rows reads one vector of each, not all of them. A driver
	// (or a plugin) built before this field reads every vector, so a caller still picks its
	// vector out of ScanPage.VectorNames. A walk asks the same names at every step.
	VectorNames []string `json:"vectorNames,omitempty"`
}

// PickVectors is which of a table's vectors r asks for, as positions in names (the table's
// vectors in its order, by name, "" its own vector; a table of one vector may name it either
// way): every position when r names none. The drivers' Scan reads only these.
func (r ScanRequest) PickVectors(table string, names []string) ([]int, error) {
	if len(r.VectorNames) == 0 {
		all := make([]int, len(names))
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	picked := make([]bool, len(names))
	for _, want := range r.VectorNames {
		k := -1
		for i, n := range names {
			if n == want {
				k = i
				break
			}
		}
		if k < 0 && want == "" && len(names) == 1 {
			k = 0 // a table's single vector, whatever its name
		}
		if k < 0 && want == "" && len(names) == 0 {
			continue // a table without vectors: rows without any, as when none is named
		}
		if k < 0 {
			listed := make([]string, 0, len(names))
			for _, n := range names {
				if n == "" {
					n = "(its own vector)"
				}
				listed = append(listed, n)
			}
			switch {
			case len(names) == 0:
				return nil, Errorf(KindInvalidArgument, "%s has no vectors, so none named %q", table, want)
			case want == "":
				return nil, Errorf(KindInvalidArgument, "%s has several named vectors: choose one of %s", table, strings.Join(listed, ", "))
			}
			return nil, Errorf(KindInvalidArgument, "%s has no vector named %q (it has: %s)", table, want, strings.Join(listed, ", "))
		}
		picked[k] = true
	}
	var out []int
	for i, ok := range picked {
		if ok {
			out = append(out, i)
		}
	}
	return out, nil
}

// ScanPage is one step's rows. Columns are the table's columns without the vector column
// (the primary key first); Rows hold Grid cells. Vectors, when asked for, are numbers rather
// than text, since an export or a map reads every number of 100,000 vectors:
// Vectors[i][k] is row i's vector VectorNames[k] ("" names a table's single vector), nil
// when the row has none.
type ScanPage struct {
	Columns     []Column      `json:"columns"`
	Rows        [][]any       `json:"rows"`
	VectorNames []string      `json:"vectorNames,omitempty"`
	Vectors     [][][]float32 `json:"vectors,omitempty"`
	// Next is the key the following step starts after; "" when the walk is done.
	Next string `json:"next,omitempty"`
	// Walked is how many keys the step read (at least len(Rows); more with filters).
	Walked int `json:"walked"`
}

// BatchWriter is what a driver offers beyond the contract to write many rows at once, for an
// import (Weaviate: the batch API): each row is created, or replaced whole when a row with its
// key exists, with its vectors when it carries them. Each row's cells are typed by the
// driver's own cell rules first; a row they refuse fails alone, with the reason, and is not
// sent. Each row reports its outcome; the error is for the whole batch (an unknown table, the
// connection lost: then rows without a result may or may not be written, see MayHaveWritten).
type BatchWriter interface {
	WriteBatch(ctx context.Context, table string, rows []Row) ([]RowResult, error)
}
