package config

import (
	"fmt"
	"os"
	"path/filepath"

	"app/backend/osplaces"
)

// EnvConfigDir names the environment variable that chooses the config dir when no flag does.
const EnvConfigDir = "APP_CONFIG_DIR"

// ResolveDir picks the config dir by the contract in ARCHITECTURE.md section 3: the flag,
// else $APP_CONFIG_DIR, else <user config dir>/App. It creates the dir with mode 0700 and
// tightens an existing one, since it holds the handshake file and connection metadata.
func ResolveDir(flagValue string) (string, error) {
	dir := flagValue
	if dir == "" {
		dir = os.Getenv(EnvConfigDir)
	}
	if dir == "" {
		base := osplaces.Current().ConfigBase
		if base == "" {
			return "", fmt.Errorf("config dir: no --config-dir, no $%s and no user config dir (no home directory): pass --config-dir", EnvConfigDir)
		}
		dir = filepath.Join(base, "App")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("config dir %q: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return "", fmt.Errorf("config dir %s cannot be created: %w", abs, err)
	}
	if err := os.Chmod(abs, 0o700); err != nil {
		return "", fmt.Errorf("config dir %s: cannot set mode 0700: %w", abs, err)
	}
	return abs, nil
}
