package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"app/backend/driver"
)

// pagingNotice explains why paging stops at MaxResults.
var pagingNotice = fmt.Sprintf("Paging stops at row %s: Weaviate refuses offset plus limit above QUERY_MAXIMUM_RESULTS (%s by default). Narrow the rows with a filter to reach the others.", "10,000", "10,000")

// window clamps a page to the result maximum. It returns the limit to ask
// for and the notice when the page was cut at the maximum.
func window(p driver.Page) (offset, limit int, notice string, err error) {
	offset, limit = p.Offset, p.Limit
	if offset < 0 || limit < 0 {
		return 0, 0, "", driver.Errorf(driver.KindInvalidArgument, "offset and limit must not be negative")
	}
	if limit == 0 {
		limit = DefaultPageSize
	}
	if offset >= MaxResults {
		return 0, 0, "", driver.Errorf(driver.KindUnsupported, "%s", pagingNotice)
	}
	if offset+limit > MaxResults {
		limit = MaxResults - offset
		notice = pagingNotice
	}
	return offset, limit, notice, nil
}

// ask is how many rows a page of limit rows reads: one more, to learn whether a next page
// exists (a last page that is exactly full then offers no Next onto an empty page: issue 25,
// item 11), unless that row lies past the result maximum, which the database refuses.
func ask(offset, limit int) int {
	if offset+limit < MaxResults {
		return limit + 1
	}
	return limit
}

// finishPage cuts the extra row asked for and sets HasMore and the notice.
func finishPage(g *driver.Grid, offset, limit int, notice string) {
	g.Offset = offset
	more := len(g.Rows) > limit
	if more {
		g.Rows = g.Rows[:limit]
	}
	full := len(g.Rows) >= limit
	switch {
	case full && offset+limit >= MaxResults:
		g.HasMore = false
		g.Notice = pagingNotice
	default:
		g.HasMore = more
		if notice != "" && full {
			g.Notice = notice
		}
	}
}

// Browse loads one page. Unfiltered and unsorted pages read
// GET /v1/objects?class=..&offset=..&limit=..&include=vector; a filter or a
// sort becomes a GraphQL Get with where and sort.
func (d *Driver) Browse(ctx context.Context, table string, page driver.Page, filters []driver.Filter, sorts []driver.Sort) (*driver.Grid, error) {
	c, err := d.classFor(ctx, table)
	if err != nil {
		return nil, err
	}
	if c.needsTenant() {
		return nil, tenantError(c)
	}
	offset, limit, notice, err := window(page)
	if err != nil {
		return nil, err
	}
	var g *driver.Grid
	n := ask(offset, limit)
	viaGraphQL := false
	if len(filters) == 0 && len(sorts) == 0 {
		g, err = d.browseREST(ctx, c, offset, n)
	} else {
		err = d.readVia(func() error {
			q, err := browseQuery(c, offset, n, filters, sorts)
			if err == nil {
				g, err = d.browseGraphQL(ctx, c, q)
				viaGraphQL = err == nil
			}
			return err
		}, func() (err error) {
			viaGraphQL = false
			g, err = d.browseGRPC(ctx, c, offset, n, filters, sorts, page.Vectors)
			return err
		})
	}
	if err != nil {
		return nil, err
	}
	finishPage(g, offset, limit, notice)
	if viaGraphQL {
		d.fillWideInts(ctx, c, g)
	}
	if page.Vectors == driver.VectorsPreview {
		driver.PreviewVectors(g)
	}
	return g, nil
}

// tenantError refuses a read or write of a multi-tenant collection that names no tenant.
func tenantError(c *class) error {
	return driver.Errorf(driver.KindUnsupported, "collection %s is multi-tenant: its rows live in its tenants; open one of them (the table %s)", c.Class, driver.TenantTable(c.Class, "<tenant>"))
}

// restPage is the part of GET /v1/objects the grid needs. Properties and
// vectors stay raw so vector cells are copied as text, never re-encoded.
type restPage struct {
	Objects []restObject `json:"objects"`
}

type restObject struct {
	ID         string                     `json:"id"`
	Properties map[string]json.RawMessage `json:"properties"`
	Vector     json.RawMessage            `json:"vector"`
	Vectors    map[string]json.RawMessage `json:"vectors"`
}

func (d *Driver) browseREST(ctx context.Context, c *class, offset, limit int) (*driver.Grid, error) {
	q := url.Values{}
	q.Set("class", c.Class)
	q.Set("limit", strconv.Itoa(limit))
	q.Set("offset", strconv.Itoa(offset))
	q.Set("include", "vector")
	resp, err := d.send(ctx, http.MethodGet, "/v1/objects", c.withTenant(q), nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := readLimited(resp.Body)
		return nil, d.statusError(resp.StatusCode, body, "the page of "+c.Class)
	}
	var p restPage
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		if cerr := driver.ContextError(ctx); cerr != nil {
			return nil, cerr
		}
		return nil, d.transportError(ctx, err)
	}
	cols := c.columns()
	names := c.namedVectors()
	g := &driver.Grid{Columns: withKinds(cols), Rows: make([][]any, 0, len(p.Objects))}
	for _, o := range p.Objects {
		row := make([]any, len(cols))
		row[0] = o.ID
		for i, prop := range c.Properties {
			if raw, ok := o.Properties[prop.Name]; ok {
				row[i+1] = cell(raw)
			}
		}
		if len(o.Vectors) > 0 && (len(names) > 0 || len(o.Vector) == 0) {
			row[len(cols)-1] = vectorsText(names, o.Vectors)
		} else if len(o.Vector) > 0 {
			row[len(cols)-1] = jsonText(o.Vector)
		}
		g.Rows = append(g.Rows, row)
	}
	return g, nil
}

// Count counts the rows matching filters with a GraphQL Aggregate, or a gRPC one where the
// server has GraphQL off (a page's totalResults is only the page size).
func (d *Driver) Count(ctx context.Context, table string, filters []driver.Filter) (int64, error) {
	c, err := d.classFor(ctx, table)
	if err != nil {
		return 0, err
	}
	if c.needsTenant() {
		return 0, tenantError(c)
	}
	var n int64
	err = d.readVia(func() (err error) {
		n, err = d.countGraphQL(ctx, c, filters)
		return err
	}, func() (err error) {
		n, err = d.countGRPC(ctx, c, filters)
		return err
	})
	return n, err
}

// countGraphQL counts with a GraphQL Aggregate.
func (d *Driver) countGraphQL(ctx context.Context, c *class, filters []driver.Filter) (int64, error) {
	q, err := countQuery(c, filters)
	if err != nil {
		return 0, err
	}
	data, err := d.graphql(ctx, q)
	if err != nil {
		return 0, err
	}
	var out struct {
		Aggregate map[string][]struct {
			Meta struct {
				Count *int64 `json:"count"`
			} `json:"meta"`
		} `json:"Aggregate"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return 0, driver.Wrap(driver.KindQueryFailed, err, "the count of %s cannot be read", c.Class)
	}
	rows := out.Aggregate[c.Class]
	if len(rows) == 0 || rows[0].Meta.Count == nil {
		return 0, driver.Errorf(driver.KindQueryFailed, "the count of %s came back empty", c.Class)
	}
	return *rows[0].Meta.Count, nil
}
