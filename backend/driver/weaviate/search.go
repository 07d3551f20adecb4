package weaviate

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"app/backend/driver"
)

// defaultAlpha is the weight a hybrid search without alpha gets on GraphQL (Weaviate's
// common_filters.DefaultAlpha); gRPC reads a missing alpha as 0, so it is sent explicitly.
const defaultAlpha = 0.75

// Search runs a vector, keyword or hybrid search on table and returns the best limit
// matches: uuid first, then the properties, then the measure that ranks them (distance for
// a vector search, score for a keyword or hybrid one). It is a GraphQL Get where the server
// serves GraphQL (SPEC A, editor rules 5) and a gRPC Search where it has GraphQL off; both
// check the request the same way and answer the same rows.
func (d *Driver) Search(ctx context.Context, table string, r driver.SearchRequest, limit int) (*driver.Grid, error) {
	if limit <= 0 {
		limit = DefaultPageSize
	}
	if err := r.Check(); err != nil {
		return nil, err
	}
	// A name outside the GraphQL syntax names no collection: refused before the schema read.
	if collection, _ := driver.SplitTenant(table); !isCollectionName(collection) {
		return nil, invalid("table %q is not a valid collection name", truncate(table, 100))
	}
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		return nil, err
	}
	c, err := d.classFor(ctx, table)
	if err != nil {
		return nil, err
	}
	if r.Profile && info.Profiles {
		// Only the gRPC API profiles a search, so a profiled search takes it whatever the
		// server's GraphQL; the rows are the same (the two paths are held to each other).
		return d.searchGRPC(ctx, &r, info, c, limit)
	}
	var g *driver.Grid
	err = d.readVia(func() error {
		q, err := searchQuery(&r, info, c, limit)
		if err != nil {
			return err
		}
		res, err := d.Execute(ctx, q, driver.ExecOptions{})
		switch {
		case err != nil:
			return err
		case res.Grid == nil:
			return driver.Errorf(driver.KindQueryFailed, "the search did not answer with rows")
		}
		g = res.Grid
		d.fillWideInts(ctx, c, g)
		if r.Explain {
			last := len(g.Columns) - 1
			for _, row := range g.Rows {
				if s, ok := row[last].(string); ok {
					row[last] = explanation(s)
				}
			}
		}
		return nil
	}, func() (err error) {
		g, err = d.searchGRPC(ctx, &r, info, c, limit)
		return err
	})
	return g, err
}

// searchGRPC is Search over gRPC.
func (d *Driver) searchGRPC(ctx context.Context, r *driver.SearchRequest, info *driver.TableInfo, c *class, limit int) (*driver.Grid, error) {
	measure, err := checkSearch(r, info, c)
	if err != nil {
		return nil, err
	}
	w, filtered, err := buildWhere(c, r.Filters)
	if err != nil {
		return nil, err
	}
	props, err := searchSelection(r, info)
	if err != nil {
		return nil, err
	}
	target, err := searchTarget(r, info)
	if err != nil {
		return nil, err
	}
	var targets *pb.Targets
	if target != "" {
		targets = &pb.Targets{TargetVectors: []string{target}}
	}
	collection, tenant := driver.SplitTenant(info.Name)
	req := &pb.SearchRequest{
		Collection:  collection,
		Tenant:      tenant,
		Limit:       uint32(limit),
		Properties:  &pb.PropertiesRequest{NonRefProperties: props},
		Metadata:    &pb.MetadataRequest{Uuid: true, Distance: measure == "distance", Score: measure == "score", ExplainScore: r.Explain},
		Uses_127Api: true,
	}
	if filtered {
		req.Filters = w.grpcFilter()
	}
	profiled := r.Profile && info.Profiles
	if profiled {
		askProfile(req.Metadata)
	}
	switch {
	case len(r.Vector) > 0:
		req.NearVector = &pb.NearVector{Targets: targets, Vectors: []*pb.Vectors{{VectorBytes: packFloat32(r.Vector), Type: pb.Vectors_VECTOR_TYPE_SINGLE_FP32}}}
	case r.Mode == modeHybrid:
		// CheckMode filled alpha with the mode's described default when none was given (gRPC
		// reads a missing alpha as 0, so it is always sent).
		alpha, _ := r.Number(paramAlpha)
		req.HybridSearch = &pb.Hybrid{Query: *r.Query, Alpha: float32(alpha), Targets: targets, Properties: r.SearchColumns}
		if v, ok := r.Floats(paramVector); ok {
			req.HybridSearch.Vectors = []*pb.Vectors{packedVector(v)}
		}
		switch r.Params[paramFusion] {
		case fusionRanked:
			req.HybridSearch.FusionType = pb.Hybrid_FUSION_TYPE_RANKED
		case fusionRelativeScore:
			req.HybridSearch.FusionType = pb.Hybrid_FUSION_TYPE_RELATIVE_SCORE
		}
	case r.Mode == modeNearText:
		req.NearText = &pb.NearTextSearch{Query: []string{*r.Query}, Targets: targets}
	case r.Query != nil:
		req.Bm25Search = &pb.BM25{Query: *r.Query, Properties: r.SearchColumns}
	default:
		req.NearObject = &pb.NearObject{Id: similarID(r), Targets: targets}
	}
	client, err := d.rpc()
	if err != nil {
		return nil, err
	}
	reply, err := client.Search(d.rpcContext(ctx), req)
	if err != nil {
		return nil, d.rpcError(ctx, err, "the search of "+info.Name)
	}
	// The columns the GraphQL Get's grid has (getGrid): uuid, the properties, the measure.
	cols := []driver.Column{{Name: ColUUID, Type: "uuid", PrimaryKey: true, ReadOnly: true}}
	for _, name := range props {
		c, _ := info.Column(name)
		cols = append(cols, driver.Column{Name: name, Type: c.Type, Array: c.Array})
	}
	cols = append(cols, driver.Column{Name: measure, ReadOnly: true})
	if r.Explain {
		cols = append(cols, driver.Column{Name: driver.ExplainColumn, ReadOnly: true})
	}
	g := &driver.Grid{Columns: withKinds(cols), Rows: make([][]any, 0, len(reply.GetResults()))}
	for _, res := range reply.GetResults() {
		row := make([]any, len(cols))
		md := res.GetMetadata()
		row[0] = md.GetId()
		fields := res.GetProperties().GetNonRefProps().GetFields()
		for i, name := range props {
			if v, ok := fields[name]; ok {
				row[i+1] = grpcCell(v)
			}
		}
		m := len(props) + 1
		if measure == "distance" && md.GetDistancePresent() {
			row[m] = graphQLFloat32(md.GetDistance())
		} else if measure == "score" && md.GetScorePresent() {
			row[m] = graphQLScore(md.GetScore())
		}
		if r.Explain && md.GetExplainScorePresent() {
			row[m+1] = explanation(md.GetExplainScore())
		}
		g.Rows = append(g.Rows, row)
	}
	if profiled {
		g.Profile = replyProfile(reply)
	}
	return g, nil
}

// packFloat32 packs a vector as gRPC carries it: little-endian float32s.
func packFloat32(v []float64) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[i*4:], math.Float32bits(float32(f)))
	}
	return b
}

// graphQLFloat32 writes a float32 measure (a distance) as GraphQL does: the shortest text that
// reads back as the same float32.
func graphQLFloat32(f float32) json.Number {
	b, _ := json.Marshal(f)
	return json.Number(b)
}

// graphQLScore writes a score as GraphQL does: a string holding the float32.
func graphQLScore(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }

// explanation is a score's explanation as the server gives it, in one order: a bm25 score's
// terms come as ", name:value, name:value" from a map the server walks in no fixed order, so
// the terms are sorted (the same search reads the same twice, and the same on both paths).
// Any other text (hybrid's lines) is kept as it came.
func explanation(s string) string {
	if !strings.HasPrefix(s, ", ") {
		return s
	}
	terms := strings.Split(strings.TrimPrefix(s, ", "), ", ")
	sort.Strings(terms)
	return strings.Join(terms, ", ")
}
