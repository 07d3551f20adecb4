package grpcdriver

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/sirupsen/logrus"
	"google.golang.org/grpc"

	"app/backend/driver"
)

// Main is the whole main function of a driver plugin binary:
//
//	<plugin> describe   prints Describe(cfg.Info) as JSON on stdout and exits
//	<plugin> version    prints name, version and protocol version
//	<plugin>            serves the driver to the app that started it (Serve)
//
// Started without the handshake cookie (by hand), serving says it is a plugin and exits 1.
func Main(cfg Config) {
	if len(os.Args) > 1 {
		os.Exit(command(cfg, os.Args[1:], os.Stdout, os.Stderr))
	}
	Serve(cfg)
}

// command runs a subcommand of Main and returns the exit code.
func command(cfg Config, args []string, stdout, stderr io.Writer) int {
	switch args[0] {
	case "describe":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(Describe(cfg.Info, cfg.protocolVersion())); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	case "version", "--version":
		fmt.Fprintf(stdout, "%s %s (driver plugin protocol %d)\n", cfg.Info.Name, cfg.Info.Version, cfg.protocolVersion())
		return 0
	case "help", "-h", "--help":
		usage(stdout, cfg)
		return 0
	}
	fmt.Fprintf(stderr, "unknown command %q\n", args[0])
	usage(stderr, cfg)
	return 2
}

func usage(w io.Writer, cfg Config) {
	fmt.Fprintf(w, `%[1]s %[2]s: the %[1]s driver plugin of the app. The app starts it; it is not run by hand.

Commands:
  describe   print name, version, protocolVersion, types and capabilities as JSON
  version    print the version
`, cfg.Info.Name, cfg.Info.Version)
}

// Serve serves the driver to the app that started this process, until the app stops it or
// goes away. Logs are JSON lines on stderr, which the app's log receives; stdout carries
// only go-plugin's handshake line. The process exits when its parent does, even one killed
// with SIGKILL: the app sets a parent-death signal on Linux, and everywhere the plugin
// watches its parent itself (WatchParent).
func Serve(cfg Config) {
	// go-plugin replaces os.Stderr with a pipe once it serves; keep the real one for logs.
	stderr := os.Stderr
	if cfg.Log == nil {
		cfg.Log = NewLogger(stderr)
	}
	srv := NewServer(cfg)
	WatchParent(func() {
		cfg.Log.Info("the app that started this plugin is gone; exiting")
		srv.CloseAll()
		os.Exit(0)
	})
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: Handshake(cfg.protocolVersion()),
		Plugins:         plugin.PluginSet{PluginKey: &grpcPlugin{srv: srv}},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, ServerOptions(srv)...)...)
		},
		Logger: hclog.New(&hclog.LoggerOptions{Name: cfg.Info.Name, Output: stderr, JSONFormat: true, Level: hclog.Info}),
	})
	srv.CloseAll()
}

// NewLogger returns a plugin logger writing JSON lines to w (os.Stderr when nil) in the
// shape go-plugin's host parses (@level, @message, @timestamp, then the fields), so each
// line reaches the app's log at its own level.
func NewLogger(w io.Writer) *logrus.Logger {
	if w == nil {
		w = os.Stderr
	}
	l := logrus.New()
	l.SetOutput(w)
	l.SetFormatter(hclogFormatter{})
	l.SetLevel(logrus.InfoLevel)
	if os.Getenv("APP_PLUGIN_DEBUG") != "" {
		l.SetLevel(logrus.DebugLevel)
	}
	return l
}

// hclogFormatter writes a logrus entry as an hclog JSON line.
type hclogFormatter struct{}

// hclogTime is the timestamp layout go-plugin's host parses.
const hclogTime = "2006-01-02T15:04:05.000000Z07:00"

func (hclogFormatter) Format(e *logrus.Entry) ([]byte, error) {
	m := make(map[string]any, len(e.Data)+3)
	for k, v := range e.Data {
		if err, ok := v.(error); ok {
			v = err.Error()
		}
		m[k] = v
	}
	m["@message"] = e.Message
	m["@level"] = hclogLevel(e.Level)
	m["@timestamp"] = e.Time.Format(hclogTime)
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func hclogLevel(l logrus.Level) string {
	switch l {
	case logrus.TraceLevel:
		return "trace"
	case logrus.DebugLevel:
		return "debug"
	case logrus.InfoLevel:
		return "info"
	case logrus.WarnLevel:
		return "warn"
	}
	return "error"
}

// Static returns Config.Info's capabilities from a driver made with default settings
// (a driver's capabilities do not depend on its settings), for describe.
func Static(open func(driver.Settings) (driver.Driver, error)) driver.Capabilities {
	d, err := open(driver.DefaultSettings())
	if err != nil {
		return driver.Capabilities{}
	}
	defer d.Close()
	return d.Capabilities()
}
