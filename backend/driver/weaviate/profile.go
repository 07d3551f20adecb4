package weaviate

import (
	"sort"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/protobuf/encoding/protowire"

	"app/backend/driver"
)

// A search's query profile (issue 40, item 6): from 1.36.9 a gRPC search whose metadata asks
// for query_profile (MetadataRequest field 11) answers with SearchReply.query_profile (field
// 6): per shard, per kind of search, the server's metrics by name. The driver builds against
// the 1.35.2 protocol module, which has neither field, so both travel as the messages'
// unknown fields, written and read here by their numbers in weaviate's search_get.proto.

// profileSince is the first release that profiles a search.
var profileSince = [3]int{1, 36, 9}

const (
	fieldMetadataQueryProfile = 11 // MetadataRequest.query_profile
	fieldReplyQueryProfile    = 6  // SearchReply.query_profile
)

// askProfile sets MetadataRequest.query_profile.
func askProfile(md *pb.MetadataRequest) {
	raw := md.ProtoReflect().GetUnknown()
	raw = protowire.AppendTag(raw, fieldMetadataQueryProfile, protowire.VarintType)
	raw = protowire.AppendVarint(raw, 1)
	md.ProtoReflect().SetUnknown(raw)
}

// replyProfile reads SearchReply.query_profile; nil when the server sent none (a release
// before 1.36.9 ignores the question).
func replyProfile(reply *pb.SearchReply) *driver.QueryProfile {
	var out *driver.QueryProfile
	eachField(reply.ProtoReflect().GetUnknown(), func(num protowire.Number, typ protowire.Type, b []byte) {
		if num != fieldReplyQueryProfile || typ != protowire.BytesType {
			return
		}
		if out == nil {
			out = &driver.QueryProfile{Shards: []driver.ShardProfile{}}
		}
		// QueryProfile { repeated ShardProfile shards = 1; }
		eachField(b, func(num protowire.Number, typ protowire.Type, b []byte) {
			if num == 1 && typ == protowire.BytesType {
				out.Shards = append(out.Shards, shardProfile(b))
			}
		})
	})
	return out
}

// shardProfile reads ShardProfile { string name = 1; string node = 2;
// map<string, SearchProfile> searches = 3; }, the searches in the order of their kinds.
func shardProfile(b []byte) driver.ShardProfile {
	sh := driver.ShardProfile{Searches: []driver.SearchProfile{}}
	eachField(b, func(num protowire.Number, typ protowire.Type, b []byte) {
		if typ != protowire.BytesType {
			return
		}
		switch num {
		case 1:
			sh.Name = string(b)
		case 2:
			sh.Node = string(b)
		case 3:
			kind, value := mapEntry(b)
			se := driver.SearchProfile{Kind: string(kind), Metrics: []driver.ProfileMetric{}}
			// SearchProfile { map<string, string> details = 1; }
			eachField(value, func(num protowire.Number, typ protowire.Type, b []byte) {
				if num == 1 && typ == protowire.BytesType {
					k, v := mapEntry(b)
					se.Metrics = append(se.Metrics, driver.NewProfileMetric(string(k), string(v)))
				}
			})
			sort.Slice(se.Metrics, func(i, j int) bool { return se.Metrics[i].Name < se.Metrics[j].Name })
			sh.Searches = append(sh.Searches, se)
		}
	})
	sort.Slice(sh.Searches, func(i, j int) bool { return sh.Searches[i].Kind < sh.Searches[j].Kind })
	return sh
}

// mapEntry reads a map entry's key (field 1) and value (field 2), both length-delimited.
func mapEntry(b []byte) (key, value []byte) {
	eachField(b, func(num protowire.Number, typ protowire.Type, b []byte) {
		if typ != protowire.BytesType {
			return
		}
		switch num {
		case 1:
			key = b
		case 2:
			value = b
		}
	})
	return key, value
}

// eachField calls f with each field of a message's encoding; a length-delimited field's
// bytes, nil for the others. It stops at the first malformed field: what came before stands.
func eachField(b []byte, f func(num protowire.Number, typ protowire.Type, b []byte)) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return
		}
		b = b[n:]
		var field []byte
		if typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return
			}
			field, n = v, m
		} else {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return
			}
		}
		f(num, typ, field)
		b = b[n:]
	}
}
