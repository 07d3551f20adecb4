// Package mcp is the protocol core of the local MCP endpoint (SPEC.md part
// B): JSON-RPC 2.0 over HTTP POST at /mcp on loopback, in the stateless
// modern revision 2026-07-28 and the legacy revisions 2025-11-25 and
// 2025-06-18 with sessions.
//
// It owns the Server and its HTTP guard, the request pipeline, era
// detection, the _meta envelope and the header copies, the dispatch table
// with typed params, era shaping and cache hints, pagination cursors,
// progress streams (with log messages, Call.Log, and in the legacy eras
// requests to the client, Call.Request, on the same request's stream),
// content blocks (content.go), in-flight requests and their cancellation, legacy
// sessions (package session), the protocol error table, and the Tool,
// Resource and Prompt types with their registries. The byte level (envelope
// decoder, JSON scanner, encoder) is package internal/wire.
//
// It knows no database: features (backend/mcpfeatures/tools, resources, prompts)
// and policy (authentication: an Authenticator) import this package and are
// wired in by backend/core through Options; this package imports none of
// them, nor connections or drivers.
//
// Every POST /mcp goes through, in this order (pipeline.go):
//
//	connection limits (Listen: 64 connections, 16 KB headers, 30 s idle)
//	guard        Host is loopback with the bound port; Origin allowed (403)
//	limits       body cap 10 MB (-33005)
//	envelope     JSON-RPC 2.0 message (-32700, -32600, -32602)
//	auth         the principal, from the Authenticator (-33007..-33010)
//	content-type application/json or +json (-32020)
//	era          modern (_meta protocol version) or legacy
//	notification 202; only notifications/cancelled acts, on the caller's own requests
//	headers      modern: _meta, header copies, version (-32602, -32020, -32022);
//	             legacy: the session gate (-32600, -33001)
//	method       the dispatch-table row for the era (-32601), its scopes (-33007)
//	dispatch     params decoded into the handler's type (-32602), handler under
//	             the deadline and cancellation (-33002, -33003), era shaping,
//	             JSON or the request's own event stream
//
// A body that is not JSON-RPC gets 400 before authentication is asked; see
// the pipeline's comment for why.
package mcp
