package app

import (
	"context"
	"reflect"
	"strings"
	"testing"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"app/app/dto"
	"app/backend/driver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// Issue 23, item 3: the search panel's bm25, hybrid and near-vector searches, with the grid's
// filters, answer the server's own matches in the server's order, on a node that serves
// GraphQL and on one with GraphQL off (read over gRPC), where they are also held to that
// node's own answer to the same request asked over gRPC by hand.
func TestSearchPanelAnswersAsTheServerDoes(t *testing.T) {
	on := weaviatetest.Shared(t, weaviatenode.Anonymous)
	off := weaviatetest.Shared(t, weaviatenode.NoGraphQL)
	prop := func(name string) *pb.FilterTarget {
		return &pb.FilterTarget{Target: &pb.FilterTarget_Property{Property: name}}
	}
	cases := []struct {
		rule  string
		req   dto.SearchRequestDTO
		query string            // the server's GraphQL for it
		grpc  *pb.SearchRequest // and its gRPC, asked of the node without GraphQL
	}{
		{"bm25 in the chosen properties",
			dto.SearchRequestDTO{By: "words", Mode: "bm25", Query: "row", SearchColumns: []string{"body"}, Limit: 10},
			`{ Get { Typed(bm25: {query: "row", properties: ["body"]}, limit: 10) { _additional { id } } } }`,
			&pb.SearchRequest{Collection: fixtures.Typed, Limit: 10, Bm25Search: &pb.BM25{Query: "row", Properties: []string{"body"}}}},
		{"hybrid, keyword only, ranked fusion",
			dto.SearchRequestDTO{By: "words", Mode: "hybrid", Query: "row", Params: map[string]string{"alpha": "0", "fusion": "ranked"}, Limit: 10},
			`{ Get { Typed(hybrid: {query: "row", alpha: 0, fusionType: rankedFusion}, limit: 10) { _additional { id } } } }`,
			&pb.SearchRequest{Collection: fixtures.Typed, Limit: 10, HybridSearch: &pb.Hybrid{Query: "row", Alpha: 0, FusionType: pb.Hybrid_FUSION_TYPE_RANKED}}},
		{"hybrid on a named vector, relative score fusion",
			dto.SearchRequestDTO{By: "words", Mode: "hybrid", Query: "north", Params: map[string]string{"alpha": "0", "fusion": "relativeScore"}, TargetVector: "title_vec", Limit: 10},
			`{ Get { NamedVectors(hybrid: {query: "north", alpha: 0, fusionType: relativeScoreFusion, targetVectors: ["title_vec"]}, limit: 10) { _additional { id } } } }`,
			&pb.SearchRequest{Collection: fixtures.NamedVectors, Limit: 10, HybridSearch: &pb.Hybrid{Query: "north", Alpha: 0, FusionType: pb.Hybrid_FUSION_TYPE_RELATIVE_SCORE, Targets: &pb.Targets{TargetVectors: []string{"title_vec"}}}}},
		{"nearVector, pasted as a JSON array",
			dto.SearchRequestDTO{By: "vector", Vector: " [0.1, 0.2, 0.3] ", Limit: 10},
			`{ Get { Typed(nearVector: {vector: [0.1, 0.2, 0.3]}, limit: 10) { _additional { id } } } }`,
			&pb.SearchRequest{Collection: fixtures.Typed, Limit: 10, NearVector: &pb.NearVector{Vectors: []*pb.Vectors{{VectorBytes: driver.PackFloats([]float32{0.1, 0.2, 0.3}), Type: pb.Vectors_VECTOR_TYPE_SINGLE_FP32}}}}},
		{"nearVector narrowed by ORed filters",
			dto.SearchRequestDTO{By: "vector", Vector: "[0.1, 0.2, 0.3]", Limit: 10, Filters: []dto.FilterDTO{
				{Column: "count", Operator: "equals", Value: "10", Group: 1}, {Column: "count", Operator: "equals", Value: "-5", Group: 1}}},
			`{ Get { Typed(where: {operator: Or, operands: [{path: ["count"], operator: Equal, valueInt: 10}, {path: ["count"], operator: Equal, valueInt: -5}]}, nearVector: {vector: [0.1, 0.2, 0.3]}, limit: 10) { _additional { id } } } }`,
			&pb.SearchRequest{Collection: fixtures.Typed, Limit: 10, NearVector: &pb.NearVector{Vectors: []*pb.Vectors{{VectorBytes: driver.PackFloats([]float32{0.1, 0.2, 0.3}), Type: pb.Vectors_VECTOR_TYPE_SINGLE_FP32}}},
				Filters: &pb.Filters{Operator: pb.Filters_OPERATOR_OR, Filters: []*pb.Filters{
					{Operator: pb.Filters_OPERATOR_EQUAL, Target: prop("count"), TestValue: &pb.Filters_ValueInt{ValueInt: 10}},
					{Operator: pb.Filters_OPERATOR_EQUAL, Target: prop("count"), TestValue: &pb.Filters_ValueInt{ValueInt: -5}}}}}},
		{"nearObject",
			dto.SearchRequestDTO{By: "row", Row: map[string]any{"uuid": fixtures.TypedBetaID}, Limit: 3},
			`{ Get { Typed(nearObject: {id: "` + fixtures.TypedBetaID + `"}, limit: 3) { _additional { id } } } }`,
			&pb.SearchRequest{Collection: fixtures.Typed, Limit: 3, NearObject: &pb.NearObject{Id: fixtures.TypedBetaID}}},
	}
	for _, v := range []weaviatenode.Variant{weaviatenode.Anonymous, weaviatenode.NoGraphQL} {
		api, id := connected(t, map[weaviatenode.Variant]*weaviatenode.Node{weaviatenode.Anonymous: on, weaviatenode.NoGraphQL: off}[v])
		for _, c := range cases {
			t.Run(v.String()+": "+c.rule, func(t *testing.T) {
				table := fixtures.Typed
				if strings.Contains(c.query, "NamedVectors") {
					table = fixtures.NamedVectors
				}
				res, err := api.Search(id, table, c.req)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, r := range res.Grid.Rows {
					got = append(got, *r[0])
				}
				want, err := on.GetIDs(context.Background(), c.query)
				if err != nil {
					t.Fatal(err)
				}
				if len(want) == 0 || strings.Join(got, ",") != strings.Join(want, ",") {
					t.Fatalf("panel %v\nserver %v", got, want)
				}
				if v == weaviatenode.NoGraphQL {
					// the node the panel read from, asked itself: the same matches in its order
					own, err := off.SearchIDs(context.Background(), c.grpc)
					if err != nil {
						t.Fatal(err)
					}
					if strings.Join(got, ",") != strings.Join(own, ",") {
						t.Fatalf("panel %v\nthe node's own gRPC answer %v", got, own)
					}
				}
				if res.Describe == "" || res.Grid.HasMore {
					t.Fatalf("%+v", res)
				}
			})
		}
	}

	api, id := connected(t, on)
	t.Run("a filter that cannot run is refused by name, with no matches", func(t *testing.T) {
		res, err := api.Search(id, fixtures.Unindexed, dto.SearchRequestDTO{By: "words", Mode: "bm25", Query: "x", Filters: []dto.FilterDTO{{Column: "title", Operator: "is_empty"}}})
		if err != nil || res.Refused == nil || res.Refused.Column != "title" || len(res.Grid.Rows) != 0 {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("a vector that is not a JSON array of numbers is invalid_argument", func(t *testing.T) {
		if _, err := api.Search(id, fixtures.Typed, dto.SearchRequestDTO{By: "vector", Vector: "0.1, 0.2"}); err == nil || !strings.HasPrefix(err.Error(), "invalid_argument: the vector must be a JSON array") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("hybrid weighing vectors on a collection without a vectorizer is the server's error, said as it is", func(t *testing.T) {
		if _, err := api.Search(id, fixtures.Typed, dto.SearchRequestDTO{By: "words", Mode: "hybrid", Query: "row", Params: map[string]string{"alpha": "0.5"}}); err == nil || !strings.Contains(err.Error(), "without vectorizer") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("issue 40: hybrid with a row's stored vector answers as with that vector pasted; a mode without a vector refuses it", func(t *testing.T) {
		ids := func(r dto.SearchResultDTO) []string {
			var out []string
			for _, row := range r.Grid.Rows {
				out = append(out, deref(row[0]))
			}
			return out
		}
		search := func(req dto.SearchRequestDTO) []string {
			t.Helper()
			res, err := api.Search(id, fixtures.Typed, req)
			if err != nil || len(res.Grid.Rows) == 0 {
				t.Fatalf("%+v: %+v %v", req, res, err)
			}
			return ids(res)
		}
		byRow := search(dto.SearchRequestDTO{By: "words", Mode: "hybrid", Query: "row", VectorRow: map[string]any{"uuid": fixtures.TypedAlphaID}, Params: map[string]string{"alpha": "1"}})
		pasted := search(dto.SearchRequestDTO{By: "words", Mode: "hybrid", Query: "row", Params: map[string]string{"alpha": "1", "vector": "[0.1, 0.2, 0.3]"}})
		other := search(dto.SearchRequestDTO{By: "words", Mode: "hybrid", Query: "row", Params: map[string]string{"alpha": "1", "vector": "[0, 0, 1]"}})
		if !reflect.DeepEqual(byRow, pasted) || reflect.DeepEqual(byRow, other) {
			t.Fatalf("by the row %v, its vector pasted %v, another vector %v", byRow, pasted, other)
		}
		if _, err := api.Search(id, fixtures.Typed, dto.SearchRequestDTO{By: "words", Mode: "bm25", Query: "row", VectorRow: map[string]any{"uuid": fixtures.TypedAlphaID}}); err == nil || !strings.Contains(err.Error(), "takes no vector") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("nearText on a collection without a vectorizer says so", func(t *testing.T) {
		if _, err := api.Search(id, fixtures.Typed, dto.SearchRequestDTO{By: "words", Mode: "nearText", Query: "x"}); err == nil || !strings.Contains(err.Error(), "nearText needs a vectorizer") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("issue 40: a profile is asked for where the table profiles (1.36.9+): the node's shard, timed; none elsewhere", func(t *testing.T) {
		info, err := api.DescribeTable(id, fixtures.Typed)
		if err != nil {
			t.Fatal(err)
		}
		res, err := api.Search(id, fixtures.Typed, dto.SearchRequestDTO{By: "words", Mode: "bm25", Query: "row", Profile: true})
		if err != nil || len(res.Grid.Rows) == 0 {
			t.Fatalf("%+v %v", res, err)
		}
		version, err := on.ServerVersion(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(version, "1.35.") {
			if info.Profiles || res.Profile != nil {
				t.Fatalf("weaviate-server %s has no profiles: table says %v, search gave %+v", version, info.Profiles, res.Profile)
			}
			return
		}
		if !info.Profiles || res.Profile == nil || len(res.Profile.Shards) != 1 || len(res.Profile.Shards[0].Searches) == 0 {
			t.Fatalf("weaviate-server %s: table profiles %v, profile %+v", version, info.Profiles, res.Profile)
		}
		timed := false
		for _, m := range res.Profile.Shards[0].Searches[0].Metrics {
			timed = timed || m.Seconds != nil
		}
		if !timed {
			t.Fatalf("no timed phase in %+v", res.Profile.Shards[0])
		}
	})
	t.Run("explained scores come as the last column", func(t *testing.T) {
		res, err := api.Search(id, fixtures.Typed, dto.SearchRequestDTO{By: "words", Mode: "bm25", Query: "row", Explain: true})
		cols := res.Grid.Columns
		if err != nil || len(res.Grid.Rows) == 0 || cols[len(cols)-1].Name != "explainScore" || res.Grid.Rows[0][len(cols)-1] == nil {
			t.Fatalf("%+v %v", res, err)
		}
	})
}
