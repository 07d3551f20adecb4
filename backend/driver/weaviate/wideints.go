package weaviate

import (
	"context"
	"strings"
	"time"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"app/backend/driver"
)

// Weaviate's GraphQL types an int property as GraphQL's Int, which is 32 bits: a value
// outside ±2,147,483,647 comes back as null, with no error (measured on weaviate-server
// 1.35.2: 3,000,000,000 stored, REST and gRPC give it, GraphQL gives null; in an int[] the
// element is null). So a page read through GraphQL (a filtered or sorted page, a search)
// has its int cells read again over gRPC, where they are int64, for the rows where GraphQL
// gave a null. A real null reads back as null.
//
// The read is bounded by wideIntsTimeout, and a gRPC port that does not answer is not asked
// again by this connection: a page is never slowed by more than one such wait. Those cells
// then stay empty, as GraphQL gave them (the grid's notice is for limits that cut rows, which
// this is not; docs/architecture.md says it).
const wideIntsTimeout = 3 * time.Second

// fillWideInts reads again, over gRPC, the int and int[] cells that a GraphQL answer left
// null in g (rows keyed by the uuid in column 0).
func (d *Driver) fillWideInts(ctx context.Context, c *class, g *driver.Grid) {
	if d.noWideInts.Load() {
		return
	}
	cols := map[int]string{} // grid column -> int property
	for i, col := range g.Columns {
		if i == 0 {
			continue
		}
		if p, ok := c.property(col.Name); ok {
			if b, _ := p.base(); b == "int" {
				cols[i] = p.Name
			}
		}
	}
	if len(cols) == 0 {
		return
	}
	var ids []string
	for _, r := range g.Rows {
		id, _ := r[0].(string)
		if id != "" && intCellsLost(r, cols) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return
	}
	names := make([]string, 0, len(cols))
	for _, n := range cols {
		names = append(names, n)
	}
	client, err := d.rpc()
	var reply *pb.SearchReply
	if err == nil {
		rctx, cancel := context.WithTimeout(d.rpcContext(ctx), wideIntsTimeout)
		reply, err = client.Search(rctx, &pb.SearchRequest{Collection: c.Class, Tenant: c.tenant, Limit: uint32(len(ids)), Uses_127Api: true,
			Filters:    where{op: "ContainsAny", path: "id", value: ids}.grpcFilter(),
			Metadata:   &pb.MetadataRequest{Uuid: true},
			Properties: &pb.PropertiesRequest{NonRefProperties: names}})
		cancel()
	}
	if err != nil {
		if ctx.Err() == nil {
			d.noWideInts.Store(true)
			d.log.WithError(err).Info("gRPC does not answer at " + d.grpcTarget + ": ints beyond 32 bits on pages read through GraphQL stay empty")
		}
		return
	}
	byID := make(map[string]map[string]*pb.Value, len(reply.GetResults()))
	for _, r := range reply.GetResults() {
		byID[r.GetMetadata().GetId()] = r.GetProperties().GetNonRefProps().GetFields()
	}
	for _, r := range g.Rows {
		id, _ := r[0].(string)
		props, ok := byID[id]
		if !ok {
			continue
		}
		for i, name := range cols {
			if i < len(r) && intCellLost(r[i]) {
				if v, ok := props[name]; ok {
					r[i] = grpcCell(v)
				}
			}
		}
	}
}

// intCellsLost tells whether any of a row's int cells may be a value GraphQL dropped.
func intCellsLost(r []any, cols map[int]string) bool {
	for i := range cols {
		if i < len(r) && intCellLost(r[i]) {
			return true
		}
	}
	return false
}

// intCellLost: a null int, or an int[] with a null element (Weaviate stores no null
// elements, so one is a value GraphQL could not carry).
func intCellLost(cell any) bool {
	switch x := cell.(type) {
	case nil:
		return true
	case string:
		return strings.HasPrefix(x, "[") && strings.Contains(x, "null")
	}
	return false
}
