//lint:file-ignore SA1019 the tests send Weaviate's deprecated float list on purpose: it is what the codec drops

package weaviate

import (
	"testing"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
)

// TestReplyCodecDropsOnlyTheDeprecatedVectorList: a search reply decodes as Weaviate sent
// it, except each result's metadata.vector (the float list the driver never reads; its
// vector_bytes stay); other messages and a reply that is not well formed decode as they came.
func TestReplyCodecDropsOnlyTheDeprecatedVectorList(t *testing.T) {
	vec := []float32{0.5, -1, 2.25}
	sent := &pb.SearchReply{
		Took: 1.5,
		Results: []*pb.SearchResult{
			{Metadata: &pb.MetadataResult{Id: "00000000-0000-4000-8000-000000000001", Vector: vec, VectorBytes: []byte{1, 2, 3, 4}, Distance: 0.25, DistancePresent: true}},
			{Metadata: &pb.MetadataResult{Id: "00000000-0000-4000-8000-000000000002"}},
			// A list of 40 floats makes the metadata's length two bytes long, and one
			// without it: the message moves back by a byte.
			{Metadata: &pb.MetadataResult{Id: "00000000-0000-4000-8000-000000000003", Vector: make([]float32, 40)}},
			{},
		},
	}
	b, err := proto.Marshal(sent)
	if err != nil {
		t.Fatal(err)
	}
	got := &pb.SearchReply{}
	if err := newReplyCodec().Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, got); err != nil {
		t.Fatal(err)
	}
	want := proto.Clone(sent).(*pb.SearchReply)
	want.Results[0].Metadata.Vector = nil
	want.Results[2].Metadata.Vector = nil
	if !proto.Equal(got, want) {
		t.Fatalf("decoded\n%v\nwant\n%v", got, want)
	}

	t.Run("other messages are decoded by the proto codec", func(t *testing.T) {
		req := &pb.SearchRequest{Collection: "Gadget", Limit: 7}
		b, _ := proto.Marshal(req)
		got := &pb.SearchRequest{}
		if err := newReplyCodec().Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, got); err != nil || !proto.Equal(got, req) {
			t.Fatalf("got %v, %v", got, err)
		}
	})
	t.Run("a malformed reply fails as the proto codec fails", func(t *testing.T) {
		bad := append(append([]byte{}, b...), 0x0a, 0x7f) // a results field longer than what follows
		if _, ok := stripReplyVectors(nil, bad); ok {
			t.Fatal("a truncated reply was rewritten")
		}
		if err := newReplyCodec().Unmarshal(mem.BufferSlice{mem.SliceBuffer(bad)}, &pb.SearchReply{}); err == nil {
			t.Fatal("a truncated reply decoded")
		}
	})
}

// FuzzStripReplyVectors: whatever bytes come, the rewrite never panics, and what it returns
// decodes as the input does, less the vector lists.
func FuzzStripReplyVectors(f *testing.F) {
	b, _ := proto.Marshal(&pb.SearchReply{Results: []*pb.SearchResult{{Metadata: &pb.MetadataResult{Id: "x", Vector: []float32{1}, VectorBytes: []byte{0, 0, 128, 63}}}}})
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		out, ok := stripReplyVectors(nil, b)
		if !ok {
			return
		}
		var in, got pb.SearchReply
		if proto.Unmarshal(b, &in) != nil {
			return
		}
		if err := proto.Unmarshal(out, &got); err != nil {
			t.Fatalf("the rewrite of a valid reply does not decode: %v", err)
		}
		for _, r := range in.Results {
			if r.Metadata != nil {
				r.Metadata.Vector = nil
			}
		}
		if !proto.Equal(&in, &got) {
			t.Fatalf("rewrite changed more than the vector lists:\n%v\n%v", &in, &got)
		}
	})
}
