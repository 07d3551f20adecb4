package weaviate

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"app/backend/driver"
)

// scanPage is how many keys a Scan step walks by default, and maxScanPage the most it walks.
const (
	scanPage    = 1000
	maxScanPage = 10000
)

// Scan walks a collection in uuid order with the gRPC cursor (SearchRequest.after), which
// Weaviate serves past QUERY_MAXIMUM_RESULTS and never by offset. The cursor cannot be combined
// with a filter, so a filtered step walks its page of keys first and then asks for the rows
// among them that match: the filter AND "id is one of these keys", by the server's own filter
// rules (tokenization, dates, nulls), which a filter applied here could not match.
//
// Vectors come as the packed float32s the server sends, never as JSON text.
func (d *Driver) Scan(ctx context.Context, table string, req driver.ScanRequest) (*driver.ScanPage, error) {
	c, err := d.classFor(ctx, table)
	if err != nil {
		return nil, err
	}
	if c.needsTenant() {
		return nil, tenantError(c)
	}
	w, filtered, err := buildWhere(c, req.Filters)
	if err != nil {
		return nil, err
	}
	limit := req.Limit
	if limit <= 0 {
		limit = scanPage
	}
	limit = min(limit, maxScanPage)
	names, err := scanSlots(c, req)
	if err != nil {
		return nil, err
	}
	withRows := func(r *pb.SearchRequest) {
		r.Properties = grpcProperties(c.Properties)
		r.Metadata = &pb.MetadataRequest{Uuid: true}
		if req.Vectors {
			// only the asked vectors: the server reads and sends no other
			r.Metadata.Vector = (len(names) == 0 && !c.noVectors()) || (len(names) > 0 && names[0] == "")
			r.Metadata.Vectors = names
			if len(names) > 0 && names[0] == "" {
				r.Metadata.Vectors = names[1:]
			}
		}
	}
	client, err := d.rpc()
	if err != nil {
		return nil, err
	}
	keys := &pb.SearchRequest{Collection: c.Class, Tenant: c.tenant, Limit: uint32(limit), After: req.After,
		Metadata: &pb.MetadataRequest{Uuid: true}, Uses_127Api: true}
	if !filtered {
		withRows(keys)
	}
	reply, err := client.Search(d.rpcContext(ctx), keys)
	if status.Code(err) == codes.Unavailable && driver.ContextError(ctx) == nil {
		// A node whose gRPC port is not reachable (an older or a docker-compose node that
		// does not publish it) still walks with the REST cursor, without filters.
		if filtered {
			return nil, driver.Errorf(driver.KindConnection, "Connection failed: a filtered walk needs the gRPC API at %s, which does not answer; walk without filters, or set the gRPC host and port in the connection's Advanced settings", d.grpcTarget)
		}
		return d.scanREST(ctx, c, req.After, limit, req.Vectors, names)
	}
	if err != nil {
		return nil, d.rpcError(ctx, err, "the rows of "+c.Class)
	}
	results := reply.GetResults()
	cols := c.columns()
	page := &driver.ScanPage{Columns: withKinds(cols[:len(cols)-1]), Rows: make([][]any, 0, len(results)), Walked: len(results)}
	if len(results) == limit {
		page.Next = results[len(results)-1].GetMetadata().GetId()
	}
	if filtered && len(results) > 0 {
		ids := make([]string, len(results))
		for i, r := range results {
			ids[i] = r.GetMetadata().GetId()
		}
		match := &pb.SearchRequest{Collection: c.Class, Tenant: c.tenant, Limit: uint32(len(ids)), Uses_127Api: true,
			Filters: where{op: "And", operands: []where{w, {op: "ContainsAny", path: "id", value: ids}}}.grpcFilter()}
		withRows(match)
		if reply, err = client.Search(d.rpcContext(ctx), match); err != nil {
			return nil, d.rpcError(ctx, err, "the rows of "+c.Class)
		}
		results = reply.GetResults()
		// The walk's order is the cursor's: uuids ascending, as text.
		sort.Slice(results, func(i, j int) bool { return results[i].GetMetadata().GetId() < results[j].GetMetadata().GetId() })
	}
	if req.Vectors {
		page.VectorNames = names
		if len(names) == 0 {
			page.VectorNames = []string{""}
		}
		page.Vectors = make([][][]float32, 0, len(results))
	}
	for _, r := range results {
		row := make([]any, len(page.Columns))
		grpcCells(c, r, row)
		page.Rows = append(page.Rows, row)
		if req.Vectors {
			page.Vectors = append(page.Vectors, scanVectors(names, r.GetMetadata()))
		}
	}
	return page, nil
}

// scanSlots are the vectors a step reads, as vectorSlots names them (nil: the collection's
// single vector): those req names (driver.ScanRequest.PickVectors), all when it names none.
func scanSlots(c *class, req driver.ScanRequest) ([]string, error) {
	slots := c.vectorSlots()
	if !req.Vectors || len(req.VectorNames) == 0 {
		return slots, nil
	}
	all := slots
	if len(all) == 0 {
		all = []string{""} // the single vector
	}
	picked, err := req.PickVectors(c.Class, all)
	if err != nil || len(slots) == 0 {
		return slots, err
	}
	names := make([]string, len(picked))
	for i, k := range picked {
		names[i] = slots[k]
	}
	return names, nil
}

// scanVectors are a result's vectors in names' order (the single vector when names is empty;
// "" names the collection's own vector beside named ones). A multi-vector is left out (nil):
// it is a list of vectors, not one.
func scanVectors(names []string, md *pb.MetadataResult) [][]float32 {
	if len(names) == 0 {
		return [][]float32{driver.PackedFloats(md.GetVectorBytes())}
	}
	out := make([][]float32, len(names))
	if names[0] == "" {
		out[0] = driver.PackedFloats(md.GetVectorBytes())
	}
	for _, v := range md.GetVectors() {
		if v.GetType() == pb.Vectors_VECTOR_TYPE_MULTI_FP32 {
			continue
		}
		if i := sort.SearchStrings(names, v.GetName()); i < len(names) && names[i] == v.GetName() {
			out[i] = driver.PackedFloats(v.GetVectorBytes())
		}
	}
	return out
}

// scanREST is Scan's walk over REST: GET /v1/objects with the `after` cursor.
func (d *Driver) scanREST(ctx context.Context, c *class, after string, limit int, vectors bool, names []string) (*driver.ScanPage, error) {
	q := url.Values{}
	q.Set("class", c.Class)
	q.Set("limit", strconv.Itoa(limit))
	if after != "" {
		q.Set("after", after)
	}
	if vectors {
		q.Set("include", "vector")
	}
	st, body, err := d.call(ctx, http.MethodGet, "/v1/objects", c.withTenant(q), nil)
	if err != nil {
		return nil, err
	}
	if st != http.StatusOK {
		return nil, d.statusError(st, body, "the rows of "+c.Class)
	}
	var p restPage
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, driver.Wrap(driver.KindQueryFailed, err, "the server's page of %s is not JSON", c.Class)
	}
	cols := c.columns()
	page := &driver.ScanPage{Columns: withKinds(cols[:len(cols)-1]), Rows: make([][]any, 0, len(p.Objects)), Walked: len(p.Objects)}
	if len(p.Objects) == limit {
		page.Next = p.Objects[len(p.Objects)-1].ID
	}
	if vectors {
		page.VectorNames = names
		if len(names) == 0 {
			page.VectorNames = []string{""}
		}
	}
	for _, o := range p.Objects {
		row := make([]any, len(page.Columns))
		row[0] = o.ID
		for i, prop := range c.Properties {
			if raw, ok := o.Properties[prop.Name]; ok {
				row[i+1] = cell(raw)
			}
		}
		page.Rows = append(page.Rows, row)
		if !vectors {
			continue
		}
		vs := make([][]float32, len(page.VectorNames))
		if len(names) == 0 {
			_ = json.Unmarshal(o.Vector, &vs[0])
		} else {
			for k, n := range names {
				if n == "" {
					_ = json.Unmarshal(o.Vector, &vs[k])
					continue
				}
				_ = json.Unmarshal(o.Vectors[n], &vs[k]) // a multi-vector does not decode: left out
			}
		}
		page.Vectors = append(page.Vectors, vs)
	}
	return page, nil
}
