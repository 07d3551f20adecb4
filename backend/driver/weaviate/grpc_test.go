package weaviate

import (
	"testing"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
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
