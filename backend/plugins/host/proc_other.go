//go:build !linux

package host

import "os/exec"

// setParentDeathSignal does nothing outside Linux: there the plugin's own parent watch
// (grpcdriver.WatchParent) ends it when the app is gone.
func setParentDeathSignal(*exec.Cmd) {}

// onSpawnThread runs fn; only Linux needs a fixed spawn thread.
func onSpawnThread(fn func()) { fn() }
