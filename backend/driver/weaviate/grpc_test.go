package weaviate

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"app/backend/driver"
)

// The gRPC path writes arrays and objects as Weaviate's REST API does: <, > and & kept, not
// escaped as encoding/json does by default, so a cell reads the same on both paths.
func TestGRPCCellsKeepHTMLCharactersAsRESTDoes(t *testing.T) {
	list := &pb.Value{Kind: &pb.Value_ListValue{ListValue: &pb.ListValue{Kind: &pb.ListValue_TextValues{TextValues: &pb.TextValues{Values: []string{"R&D", "<b>"}}}}}}
	if got := grpcCell(list); got != `["R&D","<b>"]` {
		t.Fatalf("text[] cell %#v", got)
	}
	obj := &pb.Value{Kind: &pb.Value_ObjectValue{ObjectValue: &pb.Properties{Fields: map[string]*pb.Value{
		"a": {Kind: &pb.Value_TextValue{TextValue: "x & y"}}, "b": {Kind: &pb.Value_IntValue{IntValue: 3}},
	}}}}
	if got := grpcCell(obj); got != `{"a":"x & y","b":3}` {
		t.Fatalf("object cell %#v", got)
	}
}

// Issue 19, item 3: the gRPC address takes the official clients' defaults: the same host and
// 50051 for a self-hosted node, grpc-<host> on 443 for a hosted cluster (the domains the
// connection form knows), and what the settings name otherwise.
func TestGRPCTargetDefaults(t *testing.T) {
	for _, c := range []struct {
		s    driver.Settings
		want string
	}{
		{driver.Settings{Host: "localhost", Port: 8080, SSLMode: driver.SSLDisabled}, "localhost:50051"},
		{driver.Settings{Host: "x.c0.europe-west3.gcp.weaviate.cloud", Port: 443, SSLMode: driver.SSLRequired}, "grpc-x.c0.europe-west3.gcp.weaviate.cloud:443"},
		{driver.Settings{Host: "old.semi.network", Port: 443, SSLMode: driver.SSLRequired}, "grpc-old.semi.network:443"},
		{driver.Settings{Host: "x.weaviate.cloud", Port: 80, SSLMode: driver.SSLDisabled}, "grpc-x.weaviate.cloud:50051"},
		{driver.Settings{Host: "db", Port: 8080, GRPCHost: "grpc.db", GRPCPort: 6000}, "grpc.db:6000"},
		{driver.Settings{Host: "::1", Port: 8080}, "[::1]:50051"},
	} {
		if got := grpcTarget(c.s); got != c.want {
			t.Errorf("%+v: %s, want %s", c.s, got, c.want)
		}
	}
}

// A preview cut from packed floats is the preview cut from the vector's JSON text: single
// vectors, short ones, empty ones and multi-vectors.
func TestAPackedPreviewIsTheTextPreview(t *testing.T) {
	pack := func(dim int, fs ...float32) []byte {
		var b []byte
		if dim > 0 {
			b = binary.LittleEndian.AppendUint16(b, uint16(dim))
		}
		for _, f := range fs {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
		return b
	}
	cases := []struct {
		name  string
		b     []byte
		multi bool
	}{
		{"a vector of six", pack(0, 0.1, -0.25, 3, 1e-7, 5, 6), false},
		{"a vector of two", pack(0, 1, 2), false},
		{"an empty vector", pack(0), false},
		{"a multi-vector of two vectors of three", pack(3, 1, 2, 3, 4, 5, 6), true},
		{"a multi-vector of one vector of five", pack(5, 0.5, 0.25, 0.125, 1, 2), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := json.Marshal(packedPreview(c.b, c.multi))
			want := driver.PreviewText(driver.TypeVector, string(vectorJSON(c.b, c.multi)))
			if string(got) != want {
				t.Fatalf("packed %s, text %s", got, want)
			}
		})
	}
}
