// Package grpcdriver carries backend/driver's contract across a process boundary: the
// gRPC client (host side, Conn is a driver.Driver) and server (plugin side, Server wraps
// driver.Drivers), the conversions between driver types and the wire both ways, and the
// hashicorp/go-plugin glue (handshake, Serve, Main) a plugin binary such as
// cmd/weaviate-driver is built from.
//
// What crosses the wire intact: every value of the contract (see convert.go for the few
// normalizations), driver error kinds with their user-safe messages (spec prefixes
// "Authentication failed:" and "Connection failed:" included), and context cancellation
// and deadlines (a cancelled Browse cancels the HTTP request inside the plugin). A plugin
// process that dies turns every call of its connections into "Connection failed: driver
// stopped" (ErrDriverStopped).
//
// The protocol version rule is in docs/plugins.md.
package grpcdriver

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

// ProtocolVersion is the version of the driver plugin protocol this code speaks (the .proto
// in internal/proto/driverv2): a plugin built from it serves this version only, and a host
// built from it runs plugins of OldestProtocol to this one, negotiated at start (go-plugin's
// versioned plugin sets). See docs/plugins.md for when it changes.
//
// Protocol 3 (driver contract 3) changed the meaning of the search request: a search by words
// is in one of the modes the table's driver describes, with the mode's params, where protocol
// 2 had Weaviate's modes with alpha and fusion fields. A plugin of 3 is refused by an app of 2
// in words ("update the app"); a plugin of 2 runs in an app of 3, searched near vectors and
// rows only, until it is updated.
const ProtocolVersion = 3

// OldestProtocol is the oldest plugin protocol a host built from this code runs.
const OldestProtocol = 2

// Protocols are the plugin protocols a host built from this code runs, oldest first.
func Protocols() []int {
	out := make([]int, 0, ProtocolVersion-OldestProtocol+1)
	for v := OldestProtocol; v <= ProtocolVersion; v++ {
		out = append(out, v)
	}
	return out
}

// MaxMessageSize bounds one gRPC message either way. A 1,000-row page of 768-dimension
// vectors is about 8 MB on the wire and a single 10,000-row page (offset 0, limit 10,000,
// the deepest a page may reach) about 80 MB; docs/plugins.md has the measurements.
const MaxMessageSize = 256 << 20

// PluginKey is the name the driver service is dispensed under in go-plugin's plugin set.
const PluginKey = "driver"

// MagicCookieKey and MagicCookieValue are go-plugin's handshake cookie: a plugin binary
// started without it (by a person, from a shell) says it is a plugin and exits. The cookie
// is a usability check, not security.
const (
	MagicCookieKey   = "APP_DRIVER_PLUGIN"
	MagicCookieValue = "6f1d3c0b2a9e4f57b8c1d2e3f4a5b6c7-driver"
)

// Handshake is the handshake at the given protocol version.
func Handshake(protocol int) plugin.HandshakeConfig {
	return plugin.HandshakeConfig{
		ProtocolVersion:  uint(protocol),
		MagicCookieKey:   MagicCookieKey,
		MagicCookieValue: MagicCookieValue,
	}
}

// DialOptions are the host's gRPC options: the message size limit both ways.
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithDefaultCallOptions(
		grpc.MaxCallRecvMsgSize(MaxMessageSize),
		grpc.MaxCallSendMsgSize(MaxMessageSize),
	)}
}

// ServerOptions are the plugin's gRPC options: the message size limit both ways and the
// server's panic guard.
func ServerOptions(srv *Server) []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(MaxMessageSize),
		grpc.MaxSendMsgSize(MaxMessageSize),
		grpc.ChainUnaryInterceptor(srv.recoverUnary),
	}
}

// grpcPlugin is the go-plugin Plugin of the driver service. The host's copy has no server;
// the plugin's has no use for GRPCClient. protocol is the version the host's copy is for.
type grpcPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	srv      *Server
	stopped  func() bool
	protocol int
}

func (p *grpcPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	p.srv.Register(s)
	return nil
}

func (p *grpcPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, cc *grpc.ClientConn) (any, error) {
	c := NewClient(cc, p.stopped)
	c.protocol = p.protocol
	return c, nil
}

// HostPlugins are the plugin sets a host passes to go-plugin's ClientConfig, one per protocol
// it runs (VersionedPlugins): the plugin serves its newest that the host lists. Dispensing
// PluginKey gives a *Client that knows the protocol agreed; stopped reports whether the
// plugin process is gone.
func HostPlugins(stopped func() bool) map[int]plugin.PluginSet {
	out := map[int]plugin.PluginSet{}
	for _, v := range Protocols() {
		out[v] = plugin.PluginSet{PluginKey: &grpcPlugin{stopped: stopped, protocol: v}}
	}
	return out
}
