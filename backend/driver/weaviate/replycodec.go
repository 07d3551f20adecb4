package weaviate

import (
	"fmt"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// replyCodec is the gRPC codec of the driver's connection: the proto codec, except that a
// search reply's results lose their metadata's deprecated `vector` (a repeated float) before
// they are decoded. Weaviate 1.35 sends an object's single vector twice, as that list and as
// `vector_bytes` (prepare_reply.go); the driver reads only the bytes, and decoding the list
// cost the plugin a seventh of its CPU in an export of 768-dimension vectors
// (bench/transfer). A reply that cannot be walked is decoded as it came.
type replyCodec struct{ base encoding.CodecV2 }

// Field numbers, from the generated descriptors: results (SearchReply), metadata
// (SearchResult), vector (MetadataResult).
var (
	replyResults   = fieldNumber(&pb.SearchReply{}, "results")
	resultMetadata = fieldNumber(&pb.SearchResult{}, "metadata")
	metadataVector = fieldNumber(&pb.MetadataResult{}, "vector")
)

func fieldNumber(m proto.Message, name protoreflect.Name) protowire.Number {
	f := m.ProtoReflect().Descriptor().Fields().ByName(name)
	if f == nil {
		panic(fmt.Sprintf("weaviate: %T has no field %s", m, name))
	}
	return f.Number()
}

func newReplyCodec() replyCodec { return replyCodec{base: encoding.GetCodecV2("proto")} }

func (c replyCodec) Name() string { return c.base.Name() }

func (c replyCodec) Marshal(v any) (mem.BufferSlice, error) { return c.base.Marshal(v) }

func (c replyCodec) Unmarshal(data mem.BufferSlice, v any) error {
	reply, ok := v.(*pb.SearchReply)
	if !ok {
		return c.base.Unmarshal(data, v)
	}
	pool := mem.DefaultBufferPool()
	buf := data.MaterializeToBuffer(pool)
	defer buf.Free()
	b := buf.ReadOnlyData()
	// The rewrite is never longer than the reply; proto.Unmarshal copies what it keeps, so
	// the pooled buffer goes back when it returns.
	out := pool.Get(len(b))
	defer pool.Put(out)
	if stripped, ok := stripReplyVectors((*out)[:0], b); ok {
		b = stripped
	}
	return proto.Unmarshal(b, reply)
}

// stripReplyVectors appends to out a SearchReply's encoding without each result's
// metadata.vector, or returns false when b is not a well-formed message. It allocates nothing
// when out has room for b.
func stripReplyVectors(out, b []byte) ([]byte, bool) {
	return rewrite(out, b, func(out []byte, num protowire.Number, typ protowire.Type, field []byte) ([]byte, bool) {
		if num != replyResults || typ != protowire.BytesType {
			return append(out, field...), true
		}
		return rewriteNested(out, field, func(out []byte, num protowire.Number, typ protowire.Type, field []byte) ([]byte, bool) {
			if num != resultMetadata || typ != protowire.BytesType {
				return append(out, field...), true
			}
			return rewriteNested(out, field, func(out []byte, num protowire.Number, typ protowire.Type, field []byte) ([]byte, bool) {
				// Packed, or one float of an unpacked list; any other type the decoder would
				// keep as an unknown field, and so does the rewrite.
				if num == metadataVector && (typ == protowire.BytesType || typ == protowire.Fixed32Type) {
					return out, true
				}
				return append(out, field...), true
			})
		})
	})
}

// fieldFunc appends a field (field is its whole encoding, tag included) to out as it should
// be.
type fieldFunc func(out []byte, num protowire.Number, typ protowire.Type, field []byte) ([]byte, bool)

// rewrite appends each field of the message b to out through f.
func rewrite(out, b []byte, f fieldFunc) ([]byte, bool) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, false
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, false
		}
		var ok bool
		if out, ok = f(out, num, typ, b[:n+m]); !ok {
			return nil, false
		}
		b = b[n+m:]
	}
	return out, true
}

// rewriteNested appends the length-delimited field (tag, length, message) with its message
// rewritten through f. The length is written where the old one was (the new one is never
// longer) and the message moves only when its length takes fewer bytes than before.
func rewriteNested(out, field []byte, f fieldFunc) ([]byte, bool) {
	_, _, n := protowire.ConsumeTag(field)
	msg, m := protowire.ConsumeBytes(field[n:])
	if m < 0 {
		return nil, false
	}
	out = append(out, field[:n]...)
	at, room := len(out), m-len(msg)
	out = append(out, field[n:n+room]...)
	out, ok := rewrite(out, msg, f)
	if !ok {
		return nil, false
	}
	size := len(out) - at - room
	if w := protowire.SizeVarint(uint64(size)); w < room {
		copy(out[at+w:], out[at+room:])
		out = out[:at+w+size]
	}
	protowire.AppendVarint(out[at:at], uint64(size))
	return out, true
}
