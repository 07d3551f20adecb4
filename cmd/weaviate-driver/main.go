// Command weaviate-driver is the Weaviate driver plugin: backend/driver/weaviate served to the
// app over hashicorp/go-plugin (gRPC). It is not bundled with the app; the app downloads it
// from the plugin registry and starts it on first use (docs/plugins.md).
//
//	weaviate-driver describe   name, version, protocolVersion, types and capabilities as JSON
//	weaviate-driver version    the version line
//
// Started by anything but the app, it says it is a plugin and exits.
package main

import (
	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/plugins/grpcdriver"
)

// version is set at build time (scripts/plugins.sh: -ldflags "-X main.version=...").
var version = "3.0.0-dev"

// Name is the plugin's registry name.
const Name = "weaviate"

func main() { grpcdriver.Main(config()) }

func config() grpcdriver.Config {
	return grpcdriver.Config{
		Info: grpcdriver.Info{
			Name:    Name,
			Version: version,
			Types:   []string{weaviate.Type},
			Capabilities: grpcdriver.Static(func(s driver.Settings) (driver.Driver, error) {
				return weaviate.New(s)
			}),
			Connections: weaviate.Describe(),
		},
		Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
			return weaviate.New(s, weaviate.WithLogger(log))
		},
		Classify: weaviate.Classify,
	}
}
