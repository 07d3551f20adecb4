#!/usr/bin/env bash
# gen-proto.sh: regenerate the Go code of the driver plugin protocol from
# backend/plugins/internal/proto/driverv2/driver.proto. The generated files are committed, so
# a build never needs protoc; run this only after changing the .proto (and read the version
# rule in docs/plugins.md first).
#
# Needs protoc (Debian/Ubuntu: apt-get install protobuf-compiler). protoc-gen-go and
# protoc-gen-go-grpc are installed once into $APP_CACHE_DIR/tools at the versions that match
# google.golang.org/protobuf and google.golang.org/grpc in go.mod.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

# protoc-gen-go comes from the protobuf module itself (same version as go.mod);
# protoc-gen-go-grpc v1.6.0 is the generator built against protobuf v1.36.10.
PROTOC_GEN_GO_VERSION=$(go list -m -f '{{.Version}}' google.golang.org/protobuf)
PROTOC_GEN_GO_GRPC_VERSION=v1.6.0

need protoc "install protobuf-compiler (apt-get install protobuf-compiler, brew install protobuf)"
gen_go=$(ensure_go_tool protoc-gen-go google.golang.org/protobuf/cmd/protoc-gen-go "$PROTOC_GEN_GO_VERSION")
gen_grpc=$(ensure_go_tool protoc-gen-go-grpc google.golang.org/grpc/cmd/protoc-gen-go-grpc "$PROTOC_GEN_GO_GRPC_VERSION")

dir=backend/plugins/internal/proto/driverv2
step "protoc $(protoc --version | cut -d' ' -f2): $dir/driver.proto"
protoc -I "$dir" \
  --plugin=protoc-gen-go="$gen_go" --plugin=protoc-gen-go-grpc="$gen_grpc" \
  --go_out="$dir" --go_opt=paths=source_relative \
  --go-grpc_out="$dir" --go-grpc_opt=paths=source_relative \
  "$dir/driver.proto"
gofmt -l "$dir" | (! grep .) || die "generated code is not gofmt-clean"
say "wrote $dir/driver.pb.go and $dir/driver_grpc.pb.go"
