// Package plugintest opens a driver across the plugin protocol without a plugin process: the
// plugin's gRPC server around the driver and the host's client, over loopback — the boundary
// the app runs, for the conformance suites and the benches.
package plugintest

import (
	"context"
	"net"

	"github.com/sirupsen/logrus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"app/backend/driver"
	"app/backend/plugins/grpcdriver"
)

// Loopback serves cfg's driver on a loopback gRPC server and opens s through the host's
// client (not connected yet); stop ends both. cfg.Log defaults to warnings only.
func Loopback(ctx context.Context, cfg grpcdriver.Config, s driver.Settings) (d driver.Driver, stop func(), err error) {
	if cfg.Log == nil {
		log := logrus.New()
		log.SetLevel(logrus.WarnLevel)
		cfg.Log = log
	}
	// The plugin's own server options, its panic guard among them: the boundary a plugin runs.
	srv := grpcdriver.NewServer(cfg)
	g := grpc.NewServer(grpcdriver.ServerOptions(srv)...)
	srv.Register(g)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	go func() { _ = g.Serve(ln) }()
	cc, err := grpc.NewClient(ln.Addr().String(), append(grpcdriver.DialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		g.Stop()
		return nil, nil, err
	}
	k, err := grpcdriver.NewClient(cc, nil).Open(ctx, s, cfg.Info.Name, nil)
	if err != nil {
		cc.Close()
		g.Stop()
		return nil, nil, err
	}
	return k, func() { _ = k.Close(); _ = cc.Close(); g.Stop() }, nil
}
