package secrets

import (
	"testing"

	"github.com/99designs/keyring"

	"app/backend/osplaces"
)

// The layout's keychain names are the keyring library's backend names, for every OS.
func TestEachOSKeychainIsAKeyringBackend(t *testing.T) {
	known := map[keyring.BackendType]bool{}
	for _, b := range []keyring.BackendType{keyring.KeychainBackend, keyring.WinCredBackend, keyring.SecretServiceBackend, keyring.KWalletBackend, keyring.KeyCtlBackend} {
		known[b] = true
	}
	for _, goos := range []string{"linux", "darwin", "windows", "freebsd"} {
		for _, k := range osplaces.For(goos, "/home/x", func(string) string { return "" }).Keychains {
			if !known[keyring.BackendType(k)] {
				t.Errorf("%s: %q is no keyring backend", goos, k)
			}
		}
	}
}
