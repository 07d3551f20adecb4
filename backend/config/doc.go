// Package config owns the config directory: where it is, the JSON files inside it (written
// atomically and under a cross-process lock, because the CLI and the running app touch the
// same files), the user settings, and the MCP handshake file that clients read the port from.
package config
