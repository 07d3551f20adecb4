// Package product holds the facts that name this program to the outside
// world (MCP serverInfo, the handshake file, the CLI), in one place.
package product

const (
	// Name is the machine name (MCP serverInfo.name, the binary).
	Name = "app"
	// Title is the name people read (serverInfo.title, window titles).
	Title = "App"
	// WebsiteURL is the project's home (serverInfo.websiteUrl).
	WebsiteURL = "https://github.com/app-client/app"
)
