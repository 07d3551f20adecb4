package weaviate

import (
	"testing"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/protobuf/proto"
)

// vectorProfileReply is SearchReply.query_profile as weaviate-server 1.39.0 sent it for a
// nearVector search of a one-shard collection (captured from the server).
const vectorProfileReply = "2\xc9\x01\n\xc6\x01\n\x17newmembers_sMsSObsI0KUQ\x12\x05node1\x1a\xa3\x01\n\x06vector\x12\x98\x01\n\x19\n\x10hnsw_flat_search\x12\x05false\n \n\x12vector_search_took\x12\n126.068µs\n$\n\x17knn_search_layer_0_took\x12\t28.568µs\n\x17\n\ntotal_took\x12\t296.08µs\n\x1a\n\fobjects_took\x12\n158.055µs"

func TestAReplysProfileIsReadFromItsFieldNumbers(t *testing.T) {
	reply := &pb.SearchReply{}
	if err := proto.Unmarshal([]byte(vectorProfileReply), reply); err != nil {
		t.Fatal(err)
	}
	p := replyProfile(reply)
	if p == nil || len(p.Shards) != 1 {
		t.Fatalf("profile %+v", p)
	}
	sh := p.Shards[0]
	if sh.Name != "newmembers_sMsSObsI0KUQ" || sh.Node != "node1" || len(sh.Searches) != 1 || sh.Searches[0].Kind != "vector" {
		t.Fatalf("shard %+v", sh)
	}
	var names []string
	for _, m := range sh.Searches[0].Metrics {
		names = append(names, m.Name)
		switch m.Name {
		case "vector_search_took":
			if m.Value != "126.068µs" || m.Seconds == nil || *m.Seconds != 126.068e-6 {
				t.Errorf("%s: %q %v", m.Name, m.Value, m.Seconds)
			}
		case "hnsw_flat_search":
			if m.Value != "false" || m.Seconds != nil {
				t.Errorf("a value that is no duration has no seconds: %+v", m)
			}
		}
	}
	want := []string{"hnsw_flat_search", "knn_search_layer_0_took", "objects_took", "total_took", "vector_search_took"}
	if len(names) != len(want) {
		t.Fatalf("metrics %v, want %v (in name order)", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("metrics %v, want %v (in name order)", names, want)
		}
	}
	if replyProfile(&pb.SearchReply{}) != nil {
		t.Error("a reply without a profile (a server before 1.36.9) gave one")
	}
}

func TestAProfileIsAskedForByFieldNumber(t *testing.T) {
	md := &pb.MetadataRequest{Uuid: true}
	askProfile(md)
	b, err := proto.Marshal(md)
	if err != nil {
		t.Fatal(err)
	}
	// uuid (field 1, varint 1) then query_profile (field 11, varint 1).
	if string(b) != "\x08\x01\x58\x01" {
		t.Fatalf("encoded %q", b)
	}
}

// FuzzReplyProfile: whatever the server's bytes, reading a profile never panics and reads no
// more than it was given.
func FuzzReplyProfile(f *testing.F) {
	f.Add([]byte(vectorProfileReply))
	f.Add([]byte("2\x03\n\x01\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		reply := &pb.SearchReply{}
		if proto.Unmarshal(b, reply) != nil {
			return
		}
		_ = replyProfile(reply)
	})
}
