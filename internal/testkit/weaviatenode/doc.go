// Package weaviatenode starts and stops a real weaviate-server process on loopback.
//
// Why a real process: the driver and the MCP endpoint talk to Weaviate over REST and GraphQL,
// and the server is the only judge of what those endpoints accept (the 10,000-result paging
// limit, IsNull needing indexNullState, 401 bodies, ...). A fake would drift. The binary is
// weaviate-server v1.35.2, built once by scripts/ensure-weaviate.sh into
// ${APP_CACHE_DIR:-$HOME/.cache/app}/tools/weaviate-v1.35.2/ (or named by $APP_WEAVIATE_BIN).
// No Docker is needed.
//
// The same code serves the Go tests (through app/internal/testkit/weaviatetest) and the demo node of
// `make run` (through app/cmd/weaviate-demo).
//
// Each node gets its own free loopback ports (HTTP, gRPC, gossip, data, raft, raft-rpc), its
// own data directory, telemetry and profiling off, and no vectorizer module, so several nodes
// can run side by side. Three variants exist:
//
//   - Anonymous: plain http, anonymous access (the spec's Auth Method "None").
//   - APIKey: plain http, anonymous access off, one API key (Auth Method "API Key").
//   - TLS: https with a freshly generated self-signed certificate for 127.0.0.1 and localhost,
//     anonymous access. TLS and authentication are independent concerns, so TLS stays
//     anonymous to keep the SSL-mode tests about certificates only; TLSAPIKey combines both.
//
// The child is placed in its own process group and, on Linux, receives SIGKILL when the
// parent dies (Pdeathsig), so a crashed or killed test binary leaves no server behind.
package weaviatenode
