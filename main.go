// Command app is the desktop database client. With no arguments it opens the window; with
// --headless it runs the same backend (MCP server, connections) without one; its
// subcommands manage connections and settings from scripts (internal/cli).
package main

import "app/internal/cli"

func main() { cli.Main(runDesktop) }
