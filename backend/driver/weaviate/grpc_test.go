package weaviate

import (
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
