//go:build !linux

package config

import "testing"

// rootReadOnly: root ignores a dir's mode, and outside Linux these tests know no other way
// to stop root from writing to a dir while its files stay readable.
func rootReadOnly(t *testing.T, _ string) {
	t.Skip("running as root, where a dir's mode does not stop writes, and the immutable flag is set only on Linux")
}
