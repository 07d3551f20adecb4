package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode"

	"app/backend/driver"
)

// class is one collection of GET /v1/schema.
type class struct {
	Class               string                 `json:"class"`
	Description         string                 `json:"description"`
	Properties          []property             `json:"properties"`
	Vectorizer          string                 `json:"vectorizer"`
	VectorConfig        map[string]any         `json:"vectorConfig"`
	VectorIndexType     string                 `json:"vectorIndexType"`
	InvertedIndexConfig invertedIndex          `json:"invertedIndexConfig"`
	MultiTenancyConfig  struct{ Enabled bool } `json:"multiTenancyConfig"`
	raw                 json.RawMessage
	// tenant is the tenant a table name opened ("Class@tenant", driver.TenantTable): every
	// request about the collection's objects names it. Set on a copy, never in the cache.
	tenant string
}

// needsTenant tells a multi-tenant collection opened without a tenant: it holds no rows of
// its own, so reads and writes are refused with tenantError.
func (c *class) needsTenant() bool { return c.MultiTenancyConfig.Enabled && c.tenant == "" }

// table is the table name c was opened by (the collection, or its tenant's table).
func (c *class) table() string { return driver.TenantTable(c.Class, c.tenant) }

// withTenant sets the tenant of a REST request about c's objects, when c names one.
func (c *class) withTenant(q url.Values) url.Values {
	if c.tenant == "" {
		return q
	}
	if q == nil {
		q = url.Values{}
	}
	q.Set("tenant", c.tenant)
	return q
}

// isTenantName matches Weaviate's tenant name rule ([A-Za-z0-9_-]{1,64}).
func isTenantName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		switch {
		case r == '_', r == '-', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

type invertedIndex struct {
	IndexNullState      bool `json:"indexNullState"`
	IndexPropertyLength bool `json:"indexPropertyLength"`
	IndexTimestamps     bool `json:"indexTimestamps"`
}

type property struct {
	Name             string     `json:"name"`
	DataType         []string   `json:"dataType"`
	Description      string     `json:"description"`
	NestedProperties []property `json:"nestedProperties"`
	IndexFilterable  *bool      `json:"indexFilterable"`
	IndexSearchable  *bool      `json:"indexSearchable"`
	// IndexRangeFilters is the roaring-set-range index numbers and dates may have beside
	// (or instead of) the filterable one.
	IndexRangeFilters *bool  `json:"indexRangeFilters"`
	Tokenization      string `json:"tokenization"`
	// TextAnalyzer (1.37+) folds accents and names the stopword preset of a text property.
	TextAnalyzer *textAnalyzer `json:"textAnalyzer"`
}

// textAnalyzer is a text property's analyzer settings.
type textAnalyzer struct {
	ASCIIFold       bool     `json:"asciiFold"`
	ASCIIFoldIgnore []string `json:"asciiFoldIgnore"`
	StopwordPreset  string   `json:"stopwordPreset"`
}

// valueIndexed says whether the server has an index to match p's values with. Weaviate
// refuses a value filter on a property with none ("Filtering by property ... requires
// inverted index"): the filterable index, else the searchable one of text, else the range
// index of numbers and dates.
func (p property) valueIndexed() bool { return p.filterable() || p.searchable() || p.rangeable() }

// filterable, searchable and rangeable say which of Weaviate's inverted indexes p has, with
// the server's defaults for a setting left out: filterable on, searchable on for text, the
// range index off (and only for numbers and dates).
func (p property) filterable() bool { return p.IndexFilterable == nil || *p.IndexFilterable }

func (p property) searchable() bool {
	b, _ := p.base()
	return (b == "text" || b == "string") && (p.IndexSearchable == nil || *p.IndexSearchable)
}

func (p property) rangeable() bool {
	b, _ := p.base()
	return (b == "int" || b == "number" || b == "date") && p.IndexRangeFilters != nil && *p.IndexRangeFilters
}

// valueIndexes names the settings that would give p a value index, as "x is" or "x and y are".
func (p property) valueIndexes() string {
	switch b, _ := p.base(); b {
	case "text", "string":
		return "indexFilterable and indexSearchable are"
	case "int", "number", "date":
		return "indexFilterable and indexRangeFilters are"
	}
	return "indexFilterable is"
}

// Type is the property's data type as shown ("text", "int[]", a referenced
// collection name, or "Person|Place" for a multi-target reference).
func (p property) Type() string {
	if p.isRef() {
		return strings.Join(p.DataType, "|")
	}
	if len(p.DataType) == 0 {
		return ""
	}
	return p.DataType[0]
}

// isRef: a capitalised data type names a collection (cross-reference).
func (p property) isRef() bool {
	if len(p.DataType) == 0 || p.DataType[0] == "" {
		return false
	}
	return unicode.IsUpper([]rune(p.DataType[0])[0])
}

// base is the scalar type without [] and whether it is an array ("reference" for a
// cross-reference).
func (p property) base() (string, bool) { return BaseType(p.Type()) }

// namedVectors lists the collection's named vectors, sorted; nil when it has
// a single (legacy) vector. A vector whose index was dropped is left out: it can no longer be
// searched, and the server may still hold its numbers, but nothing in the app reads them.
func (c *class) namedVectors() []string {
	if len(c.VectorConfig) == 0 {
		return nil
	}
	names := make([]string, 0, len(c.VectorConfig))
	for n := range c.VectorConfig {
		if !c.droppedVector(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// droppedVector reports whether the named vector's index was dropped (DELETE
// /v1/schema/{class}/vectors/{name}/index, 1.38+): the server then names its index type
// "none", a sentinel no collection can be created with.
func (c *class) droppedVector(name string) bool {
	vc, _ := c.VectorConfig[name].(map[string]any)
	return vc["vectorIndexType"] == vectorIndexNone
}

// vectorIndexNone is the index type of a dropped vector.
const vectorIndexNone = "none"

// noVectors reports that the collection had named vectors and every one was dropped: its
// vector column stays, empty, and no read asks for a vector.
func (c *class) noVectors() bool { return len(c.VectorConfig) > 0 && len(c.vectorSlots()) == 0 }

// ownVector tells that a collection with named vectors also has its own (legacy) vector:
// Weaviate keeps a class-level vector index when named vectors are added to a collection
// that had one, and names it in vectorIndexType; a collection made with named vectors only
// has none.
func (c *class) ownVector() bool { return len(c.VectorConfig) > 0 && c.VectorIndexType != "" }

// vectorSlots are the collection's vectors by name, "" its own: nil for a single vector (as
// namedVectors), the named ones with "" first when it has its own vector too.
func (c *class) vectorSlots() []string {
	names := c.namedVectors()
	if c.ownVector() {
		return append([]string{""}, names...)
	}
	return names
}

// vectorizerOf is the module that makes the vectors of the named vector (target "" for the
// collection's own vector): "none" when vectors come only from the client. A named vector
// holds its module as the one key of its "vectorizer" object.
func (c *class) vectorizerOf(target string) string {
	if target == "" {
		return c.Vectorizer
	}
	vc, _ := c.VectorConfig[target].(map[string]any)
	mods, _ := vc["vectorizer"].(map[string]any)
	for name := range mods {
		return name
	}
	return ""
}

// vectorizedVectors are the named vectors whose vectorizer is a module (not "none").
func (c *class) vectorizedVectors() []string {
	var out []string
	for _, n := range c.namedVectors() {
		if v := c.vectorizerOf(n); v != "" && v != "none" {
			out = append(out, n)
		}
	}
	return out
}

func (c *class) property(name string) (property, bool) {
	for _, p := range c.Properties {
		if p.Name == name {
			return p, true
		}
	}
	return property{}, false
}

// Column names of the two fixed columns.
const (
	ColUUID   = "uuid"
	ColVector = "vector"
)

// columns: uuid first, one per property in schema order, vector last.
func (c *class) columns() []driver.Column {
	cols := make([]driver.Column, 0, len(c.Properties)+2)
	cols = append(cols, driver.Column{Name: ColUUID, Type: "uuid", PrimaryKey: true, ReadOnly: true,
		Filterable: []driver.Operator{driver.OpEquals, driver.OpNotEquals, driver.OpIn, driver.OpNotIn}, Sortable: true,
		Blocked: blockedFor(c, ColUUID)})
	for _, p := range c.Properties {
		b, arr := p.base()
		col := driver.Column{
			Name: p.Name, Type: p.Type(), Array: arr || b == "object" || b == "geoCoordinates" || b == "phoneNumber",
			Filterable: operatorsFor(c, p), Sortable: sortable(p), Description: p.Description,
		}
		if b == "text" || b == "string" {
			col.Tokenization = p.tokenization()
			col.FilterNotes = textFilterNotes(p.Name, col.Tokenization, col.Filterable)
		}
		if len(col.Filterable) > 0 {
			col.Blocked = blockedFor(c, p.Name)
		}
		cols = append(cols, col)
	}
	vt := driver.TypeVector
	if len(c.VectorConfig) > 0 {
		vt = driver.TypeVectors
	}
	cols = append(cols, driver.Column{Name: ColVector, Type: vt, ReadOnly: true, Array: true})
	return cols
}

func sortable(p property) bool {
	b, arr := p.base()
	if arr {
		return false
	}
	switch b {
	case "text", "string", "int", "number", "boolean", "date", "uuid":
		return true
	}
	return false
}

func (c *class) info() *driver.TableInfo {
	return &driver.TableInfo{
		Name: c.table(), Description: c.Description, Columns: withKinds(c.columns()), PrimaryKey: []string{ColUUID},
		Settings: driver.TableSettings{
			IndexNullState:      c.InvertedIndexConfig.IndexNullState,
			IndexPropertyLength: c.InvertedIndexConfig.IndexPropertyLength,
			IndexTimestamps:     c.InvertedIndexConfig.IndexTimestamps,
			MultiTenancy:        c.MultiTenancyConfig.Enabled,
			Tenant:              c.tenant,
			Vectorizer:          c.Vectorizer,
			NamedVectors:        c.namedVectors(),
			OwnVector:           c.ownVector(),
			VectorizedVectors:   c.vectorizedVectors(),
		},
		Definition: c.raw,
		Details:    c.details(),
		Searches:   c.searches(),
	}
}

// loadSchema reads GET /v1/schema and caches it.
func (d *Driver) loadSchema(ctx context.Context) error {
	st, body, err := d.call(ctx, http.MethodGet, "/v1/schema", nil, nil)
	if err != nil {
		return err
	}
	if st != http.StatusOK {
		return d.statusError(st, body, "the schema (/v1/schema)")
	}
	var doc struct {
		Classes []json.RawMessage `json:"classes"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return driver.Wrap(driver.KindQueryFailed, err, "the schema answer of %s is not valid JSON", d.hostTxt)
	}
	m := make(map[string]*class, len(doc.Classes))
	order := make([]string, 0, len(doc.Classes))
	for _, raw := range doc.Classes {
		c := &class{}
		if err := json.Unmarshal(raw, c); err != nil {
			return driver.Wrap(driver.KindQueryFailed, err, "the schema answer of %s cannot be read", d.hostTxt)
		}
		c.raw = raw
		m[c.Class] = c
		order = append(order, c.Class)
	}
	// Weaviate answers in no stable order (two reads of one schema can differ); a client
	// lists tables by name, the same every time.
	sort.Strings(order)
	d.mu.Lock()
	d.schema, d.order, d.schemaAt = m, order, time.Now()
	d.mu.Unlock()
	return nil
}

// invalidateSchema forgets the cached schema (after a REST write in the
// editor, which may have changed it).
func (d *Driver) invalidateSchema() {
	d.mu.Lock()
	d.schemaAt = time.Time{}
	d.mu.Unlock()
}

// classFor returns the collection, from a fresh cache or a reload. An
// unknown name is reloaded once before it is reported as not found.
//
// A tenant's table name ("Class@tenant") returns a copy of the collection naming the tenant.
func (d *Driver) classFor(ctx context.Context, table string) (*class, error) {
	name, tenant := driver.SplitTenant(table)
	if name == "" {
		return nil, driver.Errorf(driver.KindInvalidArgument, "no collection named")
	}
	c, err := d.collection(ctx, name)
	if err != nil || tenant == "" && !strings.Contains(table, driver.TenantSeparator) {
		return c, err
	}
	switch {
	case !isTenantName(tenant):
		return nil, driver.Errorf(driver.KindInvalidArgument, "%q is not a tenant name (letters, digits, _ and -, at most 64)", truncate(tenant, 100))
	case !c.MultiTenancyConfig.Enabled:
		return nil, driver.Errorf(driver.KindInvalidArgument, "collection %s has no tenants (multi-tenancy is off): open it without %q", name, driver.TenantSeparator+truncate(tenant, 64))
	}
	cc := *c
	cc.tenant = tenant
	return &cc, nil
}

// collection is the named collection of the cached schema.
func (d *Driver) collection(ctx context.Context, name string) (*class, error) {
	d.mu.Lock()
	c, ok := d.schema[name]
	fresh := time.Since(d.schemaAt) < schemaTTL
	d.mu.Unlock()
	if ok && fresh {
		return c, nil
	}
	if err := d.loadSchema(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	c, ok = d.schema[name]
	d.mu.Unlock()
	if !ok {
		return nil, driver.Errorf(driver.KindNotFound, "collection %q does not exist", name)
	}
	return c, nil
}

// ListTables lists the collections of /v1/schema by name. A collection qualified by its
// namespace ("acme:Article", as an operator's key sees them on a cluster with namespaces) is
// in the Group of its namespace with its short name as Label; sorted by name, each
// namespace's collections are together.
func (d *Driver) ListTables(ctx context.Context) ([]driver.Table, error) {
	if err := d.loadSchema(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]driver.Table, 0, len(d.order))
	for _, n := range d.order {
		t := driver.Table{Name: n, Description: d.schema[n].Description, MultiTenant: d.schema[n].MultiTenancyConfig.Enabled}
		if group, label := tableGroup(n); group != "" {
			t.Group, t.Label = group, label
		}
		out = append(out, t)
	}
	return out, nil
}

// DescribeTable reads the collection's schema fresh and returns its columns.
func (d *Driver) DescribeTable(ctx context.Context, table string) (*driver.TableInfo, error) {
	if table == "" {
		return nil, driver.Errorf(driver.KindInvalidArgument, "no collection named")
	}
	if err := d.loadSchema(ctx); err != nil {
		return nil, err
	}
	c, err := d.classFor(ctx, table)
	if err != nil {
		return nil, err
	}
	info := c.info()
	info.Profiles = atLeast(d.ServerVersion(), profileSince)
	return info, nil
}

// escapePath escapes one path segment.
func escapePath(s string) string { return url.PathEscape(s) }

// tokenization is how Weaviate splits the text property for filters: "word" unless the
// schema names another.
func (p property) tokenization() string {
	if p.Tokenization == "" {
		return "word"
	}
	return p.Tokenization
}

// textFilterNotes says what the text operators will match under the tokenization (issue 19,
// item 5). Checked against weaviate-server: under word tokenization "equals first row" matches
// "The first fixture row", "not equals first row" leaves out every row holding either word,
// and "contains first fix" matches word by word.
func textFilterNotes(name, tok string, ops []driver.Operator) map[driver.Operator]string {
	var eq, ne, like string
	switch tok {
	case "field":
		eq = fmt.Sprintf("%s is tokenized as one field: equals matches the whole value exactly, case kept.", name)
		ne = fmt.Sprintf("%s is tokenized as one field: not equals leaves out rows whose whole value is this one.", name)
		like = fmt.Sprintf("%s is tokenized as one field: the pattern applies to the whole value, spaces included.", name)
	case "word", "lowercase", "whitespace":
		how := map[string]string{
			"word":       "by word (letters and digits, lower-cased)",
			"lowercase":  "on white space, lower-cased",
			"whitespace": "on white space, case kept",
		}[tok]
		eq = fmt.Sprintf("%s is tokenized %s: equals matches rows holding every word of the value, in any order, not only the exact text (tokenization field would).", name, how)
		ne = fmt.Sprintf("%s is tokenized %s: not equals leaves out every row holding any word of the value.", name, how)
		like = fmt.Sprintf("%s is tokenized %s: the pattern is matched word by word, so a pattern with a space matches rows where each of its words matches a word.", name, how)
	default:
		eq = fmt.Sprintf("%s is tokenized with %s: equals matches by those tokens, not the exact text.", name, tok)
		ne = fmt.Sprintf("%s is tokenized with %s: not equals leaves out rows sharing those tokens.", name, tok)
		like = fmt.Sprintf("%s is tokenized with %s: the pattern is matched token by token.", name, tok)
	}
	notes := map[driver.Operator]string{}
	for _, op := range ops {
		switch op {
		case driver.OpEquals, driver.OpIn:
			notes[op] = eq
		case driver.OpNotEquals, driver.OpNotIn:
			notes[op] = ne
		case driver.OpContains, driver.OpNotContains, driver.OpStartsWith, driver.OpEndsWith:
			notes[op] = like
		}
	}
	return notes
}
