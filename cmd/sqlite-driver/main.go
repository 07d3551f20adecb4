// Command sqlite-driver is the SQLite driver plugin: backend/driver/sqlite served to the app
// over hashicorp/go-plugin (gRPC). It is not bundled with the app; the app downloads it from
// the plugin registry and starts it on first use (docs/plugins.md), and knows it only through
// the driver contract.
//
//	sqlite-driver describe   name, version, protocolVersion, types and capabilities as JSON
//	sqlite-driver version    the version line
//
// Started by anything but the app, it says it is a plugin and exits.
package main

import (
	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/sqlite"
	"app/backend/plugins/grpcdriver"
)

// version is set at build time (internal/pluginpub: -ldflags "-X main.version=...").
var version = "3.0.0-dev"

// Name is the plugin's registry name.
const Name = "sqlite"

func main() { grpcdriver.Main(config()) }

func config() grpcdriver.Config {
	return grpcdriver.Config{
		Info: grpcdriver.Info{
			Name:    Name,
			Version: version,
			Types:   []string{sqlite.Type},
			// The same for every connection: no settings needed to say them.
			Capabilities: new(sqlite.Driver).Capabilities(),
			Connections:  sqlite.Describe(),
		},
		Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
			return sqlite.New(s, sqlite.WithLogger(log))
		},
		Classify: sqlite.Classify,
	}
}
