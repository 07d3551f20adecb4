// Package osplaces is where the app's pieces live on each operating system: the user config
// dir its "App" folder goes in, the file names of the app and of the stdio bridge (which sit
// side by side: in /usr/lib/app on Linux, in App.app/Contents/MacOS on macOS, in the install
// folder on Windows), and the OS keychain that holds its secrets. It is a pure function of the
// OS, the home directory and the environment, so each OS's layout is tested on any machine
// (docs/packaging.md).
package osplaces

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Layout is one OS's layout.
type Layout struct {
	// ConfigBase is the user config dir; the app's config dir is ConfigBase/App.
	ConfigBase string
	// App and Bridge are the file names of the app and of app-mcp, kept in one directory.
	App, Bridge string
	// Keychains are the OS keychains the app stores secrets in, in order of preference
	// (99designs/keyring backend names).
	Keychains []string
}

// For is the layout of goos for a user whose home is home; env reads the environment.
func For(goos, home string, env func(string) string) Layout {
	l := Layout{App: "app", Bridge: "app-mcp"}
	switch goos {
	case "windows":
		l.App, l.Bridge = "app.exe", "app-mcp.exe"
		l.ConfigBase = env("AppData")
		if l.ConfigBase == "" {
			l.ConfigBase = joinFor(goos, home, "AppData", "Roaming")
		}
		l.Keychains = []string{"wincred"}
	case "darwin", "ios":
		l.ConfigBase = joinFor(goos, home, "Library", "Application Support")
		l.Keychains = []string{"keychain"}
	default: // Linux and the BSDs: the XDG base directory rules
		l.ConfigBase = env("XDG_CONFIG_HOME")
		if l.ConfigBase == "" || !strings.HasPrefix(l.ConfigBase, "/") {
			l.ConfigBase = joinFor(goos, home, ".config")
		}
		l.Keychains = []string{"secret-service", "kwallet", "keyctl"}
	}
	return l
}

// Current is this machine's layout.
func Current() Layout {
	home, _ := os.UserHomeDir()
	return For(runtime.GOOS, home, os.Getenv)
}

// joinFor joins path elements with goos's separator, whatever this machine's is; "" when the
// first (the home directory) is unknown.
func joinFor(goos string, elem ...string) string {
	if len(elem) == 0 || elem[0] == "" {
		return ""
	}
	if goos == "windows" {
		return strings.Join(elem, `\`)
	}
	return filepath.ToSlash(strings.Join(elem, "/"))
}
